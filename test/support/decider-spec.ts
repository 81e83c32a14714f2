// Given-events / when-command / then-events tables for pure deciders.
import { expect } from "vitest";
import { AppError, type ErrorCode } from "../../shared/errors/app-error.ts";
import { fold, type Decider } from "../../shared/kernel/decider.ts";

export function deciderSpec<C, S, E>(decider: Decider<C, S, E>) {
  return {
    given: (history: readonly E[]) => ({
      when: (command: C) => {
        const decide = () => decider.decide(command, fold(decider, history));
        return {
          then(expected: readonly E[]): void {
            expect(decide()).toEqual(expected);
          },
          thenRefuses(code: ErrorCode, headers?: Record<string, string>): void {
            let refusal: unknown = null;
            try {
              decide();
            } catch (error) {
              refusal = error;
            }
            expect(refusal).toBeInstanceOf(AppError);
            if (refusal instanceof AppError) {
              expect(refusal.code).toBe(code);
              if (headers) expect(refusal.headers).toEqual(headers);
            }
          },
        };
      },
    }),
  };
}
