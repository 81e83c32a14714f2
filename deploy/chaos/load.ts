// The chaos run's steady mixed load through the gateway: each worker creates a page, reads it back at once
// with the write's X-Consistency-Token (read-your-writes), and lists pages. Every answer is recorded with its
// time and status (0: no answer at all, e.g. a reset connection), and every acknowledged write (201 or 202)
// is kept so that it can be read back at the end.
export interface Answer {
  readonly at: number;
  readonly status: number;
  readonly kind: "write" | "read-your-write" | "list";
}

interface AcknowledgedWrite {
  readonly at: number;
  readonly pageId: string;
}

export interface Load {
  readonly answers: readonly Answer[];
  readonly writes: readonly AcknowledgedWrite[];
  stop(): Promise<void>;
}

const TIMEOUT_MS = 15_000;

export function startLoad(api: string, cookie: string, workers: number): Load {
  const answers: Answer[] = [];
  const writes: AcknowledgedWrite[] = [];
  let stopped = false;
  const call = async (kind: Answer["kind"], path: string, init: RequestInit = {}): Promise<Response | null> => {
    const headers = {
      cookie,
      "content-type": "application/json",
      ...(init.headers as Record<string, string> | undefined),
    };
    try {
      const response = await fetch(`${api}${path}`, { ...init, headers, signal: AbortSignal.timeout(TIMEOUT_MS) });
      answers.push({ at: Date.now(), status: response.status, kind });
      return response;
    } catch {
      answers.push({ at: Date.now(), status: 0, kind });
      return null;
    }
  };
  const worker = async (index: number) => {
    for (let n = 0; !stopped; n += 1) {
      const created = await call("write", "/pages", {
        method: "POST",
        body: JSON.stringify({ title: `chaos ${index}-${n}`, markdown: "steady load" }),
      });
      const body = created?.ok
        ? ((await created.json().catch(() => null)) as { id?: unknown } | null)
        : (await created?.arrayBuffer(), null);
      if (created?.ok && typeof body?.id === "string") {
        writes.push({ at: Date.now(), pageId: body.id });
        const token = created.headers.get("x-consistency-token") ?? "";
        const read = await call("read-your-write", `/pages/${body.id}`, { headers: { "x-consistency-token": token } });
        await read?.arrayBuffer();
      }
      const listed = await call("list", "/pages?limit=5");
      await listed?.arrayBuffer();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const running = Array.from({ length: workers }, (_, index) => worker(index));
  return {
    answers,
    writes,
    stop: async () => {
      stopped = true;
      await Promise.all(running);
    },
  };
}
