// Mentions in markdown: a link whose target is `mention:<userId>` (`[@Ann](mention:3f1c…)`), valid CommonMark.
// Found in one linear scan; rendered for readers outside the service (share pages, exports) as the link's text.
const MENTION =
  /\[([^\]\n]*)\]\(mention:([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})\)/g;

/** A text mentions at most this many distinct people; more are ignored: not recorded, notified nor reported unreachable. */
const MAX_MENTIONS = 200;

/** The distinct user ids `markdown` mentions, lower-cased, in order of first appearance, at most MAX_MENTIONS. */
export function mentionedUserIds(markdown: string): string[] {
  const ids = new Set<string>();
  for (const match of markdown.matchAll(MENTION)) {
    ids.add((match[2] ?? "").toLowerCase());
    if (ids.size >= MAX_MENTIONS) break;
  }
  return [...ids];
}

/** The markdown with each mention written as its plain text (`@Ann`), no link. */
export function mentionsAsText(markdown: string): string {
  return markdown.replace(MENTION, (_whole, text: string) => text);
}
