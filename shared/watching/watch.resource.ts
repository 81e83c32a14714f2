// What the watch and notification-settings routes answer and take.
import { z } from "zod";
import { deliverySchema, notificationKindSchema } from "../notifications/notification-kinds.ts";

const deliveryDescribed = deliverySchema.meta({
  description: "inbox: in the notification list only; email: also by email at once; digest: also in a daily email",
});
const deliveryShape = Object.fromEntries(
  notificationKindSchema.options.map((kind) => [kind, deliveryDescribed] as const),
) as { [Kind in (typeof notificationKindSchema.options)[number]]: typeof deliveryDescribed };

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
    delivery: z
      .object(deliveryShape)
      .meta({ id: "NotificationDelivery", description: "How each kind of notification reaches you" }),
  })
  .meta({ id: "NotificationSettings", description: "The caller's notification settings" });

/** Only what is sent changes; the rest stays (a kind left out of `delivery` keeps its setting). */
export const notificationSettingsBody = z.strictObject({
  autoWatch: z.boolean().optional(),
  delivery: z.strictObject(deliveryShape).partial().optional(),
});
