import { z } from "zod";

/** Sentry's release version rules: not empty, at most 250 characters, no slash or line break, not `.`, `..` or `latest`. */
export const Version = z
  .string()
  .min(1)
  .max(250)
  .refine((v) => !/[/\r\n\t\f\v]/.test(v) && v.trim() === v && ![".", "..", "latest"].includes(v), "is not a valid release version");

const DateText = z
  .string()
  .max(64)
  .refine((v) => !Number.isNaN(Date.parse(v)), "is not a date");
const ProjectRef = z.union([z.string().max(100), z.number().int()]);

/**
 * `POST /organizations/{org}/releases/` (sentry-cli `NewRelease`,
 * https://github.com/getsentry/sentry-cli/blob/fb79c59a35d79135d9eb84f4845572ce4548c455/src/api/mod.rs).
 */
export const NewReleaseBody = z.object({
  version: Version,
  projects: z.array(ProjectRef).max(100).default([]),
  ref: z.string().max(1024).nullish(),
  url: z.string().max(1024).nullish(),
  dateStarted: DateText.nullish(),
  dateReleased: DateText.nullish(),
  refs: z.lazy(() => z.array(RefBody).max(100)).optional(),
  commits: z.lazy(() => z.array(CommitBody).max(1000)).optional(),
});
export type NewReleaseBody = z.infer<typeof NewReleaseBody>;

/** `--commit repo@from..to`: a head commit and the one before the release, by registered repository name. */
export const RefBody = z.object({
  repository: z.string().min(1).max(200),
  commit: z.string().min(1).max(64),
  previousCommit: z.string().max(64).nullish(),
});

/** `--local`: commits read from the git tree (sentry-cli `GitCommit`). */
export const CommitBody = z.object({
  id: z.string().min(1).max(64),
  repository: z.string().max(200).nullish(),
  message: z.string().max(10_000).nullish(),
  author_name: z.string().max(200).nullish(),
  author_email: z.string().max(200).nullish(),
  timestamp: DateText.nullish(),
  patch_set: z
    .array(z.object({ path: z.string().max(1024), type: z.string().max(8) }))
    .max(10_000)
    .optional(),
});

/** `PUT /organizations/{org}/releases/{version}/` (sentry-cli `UpdatedRelease`). */
export const UpdateReleaseBody = z.object({
  projects: z.array(ProjectRef).max(100).optional(),
  ref: z.string().max(1024).nullish(),
  url: z.string().max(1024).nullish(),
  dateReleased: DateText.nullish(),
  refs: z.array(RefBody).max(100).optional(),
  commits: z.array(CommitBody).max(1000).optional(),
  status: z.enum(["open", "archived"]).optional(),
});
export type UpdateReleaseBody = z.infer<typeof UpdateReleaseBody>;

/** `POST …/releases/{version}/deploys/` (sentry-cli `Deploy`). */
export const DeployBody = z.object({
  environment: z.string().min(1).max(64),
  name: z.string().max(200).nullish(),
  url: z.string().max(1024).nullish(),
  dateStarted: DateText.nullish(),
  dateFinished: DateText.nullish(),
  projects: z.array(z.string().max(100)).max(100).optional(),
});

/** `POST /organizations/{org}/repos/`: a repository by name, no provider integration. */
export const RepositoryBody = z.object({
  name: z.string().min(1).max(200),
  url: z.string().max(1024).nullish(),
  provider: z.string().max(64).nullish(),
});

export const dateOf = (v: string | null | undefined): number | null => (v ? Date.parse(v) : null);
