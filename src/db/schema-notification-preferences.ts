/** Tables of per-user notification preferences (migration 0028), part of `DB` in ./schema.ts. */
export interface NotificationPreferencesSchema {
  notification_preferences: NotificationPreferencesTable;
  project_alert_preferences: ProjectAlertPreferencesTable;
}

/** A person's own choices; no row means every kind of email is on. Flags are 1 (on) or 0 (off). */
export interface NotificationPreferencesTable {
  user_id: number;
  issue_alerts: number;
  assigned: number;
  comments: number;
  resolutions: number;
  updated_at: number;
}

/** Issue alerts on (1) or off (0) for one project, over the person's own choice; no row: their choice. */
export interface ProjectAlertPreferencesTable {
  user_id: number;
  project_id: number;
  issue_alerts: number;
  updated_at: number;
}
