// A notification email's unsubscribe link, as a mail program and a browser without a session meet it: the page
// with its button (200), the one-click POST (200), a request without a token (400). The token is signed as the
// server signs it (with the session secret, NOTIFICATION_UNSUBSCRIBE_KEY being unset).
import { userIdSchema } from "../../../shared/kernel/ids.ts";
import { UnsubscribeTokens } from "../../../shared/notifications/unsubscribe-token.ts";
import { TEST_SESSION_SECRET } from "../server.ts";
import { expectAnswer, type Prober } from "./probe.ts";

export async function notificationUnsubscribe(prober: Prober): Promise<void> {
  const reader = await prober.signIn("reader");
  const tokens = new UnsubscribeTokens(TEST_SESSION_SECRET, 60_000);
  const token = tokens.issue(userIdSchema.parse(reader.id), "replied", new Date());
  const path = `/api/v1/notifications/unsubscribe?token=${encodeURIComponent(token)}`;
  const anyone = prober.as({});
  expectAnswer(await anyone.get(path), 200, "showNotificationUnsubscribe");
  expectAnswer(
    await anyone.get("/api/v1/notifications/unsubscribe"),
    400,
    "showNotificationUnsubscribe without a token",
  );
  expectAnswer(
    await anyone.send("POST", path, {
      body: "List-Unsubscribe=One-Click",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    }),
    200,
    "unsubscribeFromNotificationEmails",
  );
}
