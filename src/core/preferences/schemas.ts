import { z } from "zod";

/** A person's own choices, each on or off (form checkboxes arrive as "1" or nothing). */
export const NotificationChoicesInput = z.object({
  issueAlerts: z.boolean(),
  assigned: z.boolean(),
  comments: z.boolean(),
  resolutions: z.boolean(),
});
export type NotificationChoicesInput = z.infer<typeof NotificationChoicesInput>;

/** Issue alerts for one project: on, off, or as the person's own choice (`default`). */
export const ProjectAlertsInput = z.object({
  projectId: z.coerce.number().int().positive("choose a project"),
  issueAlerts: z.enum(["on", "off", "default"], { message: "choose on, off or as everywhere else" }),
});
export type ProjectAlertsInput = z.input<typeof ProjectAlertsInput>;
