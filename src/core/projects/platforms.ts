/**
 * Platforms a project can be created for; `setup` names the guide shown after creation
 * (a path below `setup/`, see snippets.ts). Ids follow Sentry's platform names
 * (https://docs.sentry.io/platforms/), so a project exported from Sentry keeps its platform.
 */
export const PLATFORMS = [
  { id: "javascript", name: "Browser JavaScript", setup: "javascript" },
  { id: "javascript-nextjs", name: "Next.js", setup: "javascript/nextjs" },
  { id: "node", name: "Node.js", setup: "node" },
  { id: "python", name: "Python", setup: "python" },
  { id: "go", name: "Go", setup: "go" },
  { id: "ruby", name: "Ruby", setup: "ruby" },
  { id: "java", name: "Java", setup: "java" },
  { id: "dotnet", name: ".NET", setup: "dotnet" },
  { id: "php", name: "PHP", setup: "php" },
  { id: "android", name: "Android", setup: "android" },
  { id: "apple-ios", name: "iOS", setup: "apple/ios" },
  { id: "react-native", name: "React Native", setup: "react-native" },
  { id: "other", name: "Other", setup: "javascript" },
] as const;

export type PlatformId = (typeof PLATFORMS)[number]["id"];

export const PLATFORM_IDS = PLATFORMS.map((p) => p.id);

/** The guide path for a stored platform; an unknown one (an older row) gets the browser guide. */
export const setupPath = (platform: string): string => PLATFORMS.find((p) => p.id === platform)?.setup ?? "javascript";
