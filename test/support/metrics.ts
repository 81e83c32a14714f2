// Reads a service's GET /metrics and picks samples out of the Prometheus text format.
export interface Scrape {
  readonly text: string;
  /** The sum of the samples named `name` whose labels include `labels`; 0 when there is none. */
  sample(name: string, labels?: Record<string, string>): number;
  /** The label sets of the samples named `name`. */
  labelsOf(name: string): Array<Record<string, string>>;
}

const LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

export async function scrape(baseUrl: string): Promise<Scrape> {
  const response = await fetch(`${baseUrl}/metrics`);
  if (response.status !== 200) throw new Error(`GET /metrics answered ${response.status}`);
  const text = await response.text();
  const samples = text
    .split("\n")
    .map((line) => LINE.exec(line))
    .filter((match) => match !== null)
    .map(([, name = "", labels = "", value = "0"]) => ({
      name,
      labels: Object.fromEntries([...labels.matchAll(LABEL)].map(([, key = "", label = ""]) => [key, label])),
      value: Number(value),
    }));
  const named = (name: string) => samples.filter((sample) => sample.name === name);
  return {
    text,
    sample: (name, labels = {}) =>
      named(name)
        .filter((sample) => Object.entries(labels).every(([key, value]) => sample.labels[key] === value))
        .reduce((sum, sample) => sum + sample.value, 0),
    labelsOf: (name) => named(name).map((sample) => sample.labels),
  };
}

/** Scrapes until `accept` holds, or fails after five seconds. */
export async function scrapeUntil(
  baseUrl: string,
  accept: (metrics: Scrape) => boolean,
  what: string,
): Promise<Scrape> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const metrics = await scrape(baseUrl);
    if (accept(metrics)) return metrics;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}:\n${metrics.text}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
