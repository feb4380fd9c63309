/** Platforms a project can be created for; `setup` names the snippet shown in project settings. */
export const PLATFORMS = [
  { id: "javascript", name: "Browser JavaScript", setup: "javascript" },
  { id: "javascript-nextjs", name: "Next.js", setup: "javascript/nextjs" },
  { id: "node", name: "Node.js", setup: "node" },
  { id: "python", name: "Python", setup: "python" },
  { id: "other", name: "Other", setup: "javascript" },
] as const;

export type PlatformId = (typeof PLATFORMS)[number]["id"];
