// Given events, when a command, then events (or a refusal): decider tests that read like the spec.
import { expect } from "vitest";
import { AppError } from "../../shared/errors/app-error.ts";
import { fold, type Decider } from "../../shared/kernel/decider.ts";

export function given<C, S, E>(decider: Decider<C, S, E>, history: E[]) {
  const state = fold(decider, history);
  return {
    when(command: C) {
      return {
        then(expected: E[]) {
          expect(decider.decide(command, state)).toEqual(expected);
        },
        thenRefused(code: AppError["code"]) {
          let caught: unknown = null;
          try {
            decider.decide(command, state);
          } catch (error) {
            caught = error;
          }
          expect(caught).toBeInstanceOf(AppError);
          expect(caught instanceof AppError ? caught.code : null).toBe(code);
        },
      };
    },
  };
}
