// What a bus adapter throws, at once, when its broker is away: a caller that retries (the outbox publisher)
// polls cheaply instead of backing off as from a broker that answered with an error.
export class BusUnavailableError extends Error {
  constructor(what = "the bus") {
    super(`${what} is unreachable`);
    this.name = "BusUnavailableError";
  }
}
