// What the watch and notification-settings routes answer and take.
import { z } from "zod";

export const watchResource = z
  .object({
    watching: z.boolean().meta({
      description:
        "Whether the caller watches it: their own watch (asked for, or as an author or commenter) unless they stopped, or a watched folder above it",
    }),
  })
  .meta({ id: "Watch", description: "The caller's watch of a page or folder" });

export const notificationSettingsResource = z
  .object({
    autoWatch: z.boolean().meta({
      description: "Whether you watch the pages you create, edit or comment on without asking (default true)",
    }),
  })
  .meta({ id: "NotificationSettings", description: "The caller's notification settings" });

/** Only what is sent changes; the rest stays. */
export const notificationSettingsBody = z.strictObject({ autoWatch: z.boolean().optional() });
