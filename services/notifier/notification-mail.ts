// The words of notification emails, as plain text and HTML: who did what on which page (or folder), with a link
// to it; a digest lists the day's notifications the same way. Names and titles are read from the read models when
// the mail is made and go into the mail only, never into an event. Every value from users is escaped in the HTML.
import type { ListHeaders, Mail } from "../../shared/mail/mailer.port.ts";
import type { NotificationKind } from "../../shared/notifications/notification-kinds.ts";
import { escapeHtml } from "./invitation-mail.ts";

/** A notification as a mail tells it: names and titles already looked up. */
export interface ToldNotification {
  readonly kind: NotificationKind;
  /** Who did it (the latest, when several did). */
  readonly actorName: string;
  /** How many events it stands for. */
  readonly count: number;
  /** The page's title, the folder's name or the group's name (told only to its members), or null. */
  readonly placeName: string | null;
  /** Where the link points, or null without PUBLIC_BASE_URL or a place. */
  readonly link: string | null;
  /** The id of the page or folder it is about, or null. */
  readonly placeId: string | null;
}

const aboutOf = (told: readonly ToldNotification[]): { about?: string[] } => {
  const ids = told.flatMap((entry) => (entry.placeId === null ? [] : [entry.placeId]));
  return ids.length === 0 ? {} : { about: [...new Set(ids)] };
};

const WHAT: { readonly [Kind in NotificationKind]: string } = {
  mentioned: "mentioned you on",
  replied: "replied in a thread on",
  thread_resolved: "resolved your thread on",
  thread_reopened: "reopened your thread on",
  shared: "shared with you",
  workspace_added: "added you to their workspace",
  group_added: "added you to a group",
  watched_changed: "changed",
};

/** One line: "Ann replied in a thread on “Plan” (3 times)". */
function sentenceOf(told: ToldNotification): string {
  const place = told.placeName === null ? "" : ` “${told.placeName}”`;
  const times = told.count > 1 ? ` (${told.count} times)` : "";
  return `${told.actorName} ${WHAT[told.kind]}${place}${times}`;
}

function lines(told: ToldNotification): { text: string[]; html: string[] } {
  const sentence = sentenceOf(told);
  return {
    text: [sentence, ...(told.link ? [`  ${told.link}`] : [])],
    html: [
      told.link
        ? `<li><a href="${escapeHtml(told.link)}">${escapeHtml(sentence)}</a></li>`
        : `<li>${escapeHtml(sentence)}</li>`,
    ],
  };
}

function footer(unsubscribe: string | null, what: string): { text: string[]; html: string[] } {
  if (unsubscribe === null) return { text: [], html: [] };
  return {
    text: ["", `Stop these emails (${what}): ${unsubscribe}`],
    html: [`<p><a href="${escapeHtml(unsubscribe)}">Stop these emails</a> (${escapeHtml(what)})</p>`],
  };
}

function listHeadersOf(unsubscribe: string | null): { listHeaders?: ListHeaders } {
  return unsubscribe === null
    ? {}
    : {
        listHeaders: {
          "List-Unsubscribe": `<${unsubscribe}>`,
          "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
      };
}

export function notificationMail(options: {
  messageId: string;
  to: string;
  told: ToldNotification;
  unsubscribe: string | null;
}): Mail {
  const { told, unsubscribe } = options;
  const body = lines(told);
  const end = footer(unsubscribe, `“${told.kind}” notifications by email`);
  return {
    messageId: options.messageId,
    to: options.to,
    subject: sentenceOf(told),
    text: [...body.text, ...end.text].join("\n"),
    html: [`<ul>`, ...body.html, `</ul>`, ...end.html].join("\n"),
    ...listHeadersOf(unsubscribe),
    ...aboutOf([told]),
  };
}

export function digestMail(options: {
  messageId: string;
  to: string;
  day: string;
  told: readonly ToldNotification[];
  unsubscribe: string | null;
}): Mail {
  const { told, unsubscribe } = options;
  const body = told.map(lines);
  const end = footer(unsubscribe, "every notification email");
  const subject = `Your daily digest: ${told.length} notification${told.length === 1 ? "" : "s"} (${options.day})`;
  return {
    messageId: options.messageId,
    to: options.to,
    subject,
    text: [subject, "", ...body.flatMap((entry) => entry.text), ...end.text].join("\n"),
    html: [`<p>${escapeHtml(subject)}</p>`, `<ul>`, ...body.flatMap((entry) => entry.html), `</ul>`, ...end.html].join(
      "\n",
    ),
    ...listHeadersOf(unsubscribe),
    ...aboutOf(told),
  };
}
