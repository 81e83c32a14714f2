// A caller past its share of the worker pool is refused with 429 too_many_tasks (and Retry-After), as the
// reference documents for the operations whose work takes a worker: on a server where a caller may hold one task
// of the pool and run one diff at once, a handful of the same caller's requests at once meet the refusal (a
// search's ranking, a diff, an anonymous reader's renders of one owner's share links).
import { createPage, shareLink } from "./builders.ts";
import { header, type Agent, type Answer, type Prober } from "./probe.ts";

/** The settings of a server where each caller holds one task of the pool, and one diff, at once. */
export const ONE_TASK_EACH = { WORKER_THREADS: "1", WORKER_TASKS_PER_CALLER: "1", DIFFS_PER_USER: "1" };

const AT_ONCE = 8;

async function refusedOnce(what: string, send: () => Promise<Answer>, code: string | null): Promise<void> {
  const answers = await Promise.all(Array.from({ length: AT_ONCE }, send));
  const refused = answers.filter((answer) => answer.status === 429);
  if (refused.length === 0)
    throw new Error(`${what}: ${AT_ONCE} at once, none refused (${answers.map((answer) => answer.status).join(" ")})`);
  for (const answer of refused) {
    header(answer, "retry-after");
    if (code !== null && !answer.text.includes(`"${code}"`))
      throw new Error(`${what}: 429 without ${code}: ${answer.text.slice(0, 200)}`);
  }
}

const lines = (label: string): string =>
  Array.from({ length: 2_000 }, (_, line) => `${label} line ${line} ${(line * 7_919).toString(36)}`).join("\n");

export async function tooManyTasks(prober: Prober): Promise<void> {
  const owner = await prober.signIn("busy");
  const searcher: Agent = owner;
  await refusedOnce("searchPages", () => searcher.get("/api/v1/search?q=words"), "too_many_tasks");

  const { id: pageId, created } = await createPage(owner, { markdown: lines("before") });
  const replaced = await owner.put(
    `/api/v1/pages/${pageId}/content`,
    { markdown: lines("after") },
    { "if-match": "*" },
  );
  if (replaced.status !== 200) throw new Error(`a page's content replaced: ${replaced.status}`);
  await refusedOnce("getPageDiff", () => owner.get(`/api/v1/pages/${pageId}/diff?from=${created}`), "too_many_tasks");

  const secrets = await Promise.all(
    Array.from({ length: AT_ONCE }, async (_, index) => {
      const { id } = await createPage(owner, {
        markdown: `# Page ${index}\n\n${"Some **bold** words and a [link](https://example.com). ".repeat(100)}`,
      });
      return (await shareLink(owner, "page", id)).secret;
    }),
  );
  const anyone = prober.as({});
  let next = 0;
  await refusedOnce("viewSharedPage", () => anyone.get(`/s/${secrets[next++ % secrets.length] ?? ""}`), null);
}
