import type { Relay } from "../../app/relay.ts";
import { checkRelayed } from "./check.ts";
import {
  type AuthorizationMover,
  authorizationUsed,
  describeMoveFailure,
  moveByAuthorization,
} from "./moveByAuthorization.ts";

/** The relayer's one procedure as app/'s use cases take it (app/relay.ts). */
export function relayOf(mover: AuthorizationMover): Relay {
  return {
    move: (move) => moveByAuthorization(mover, move),
    authorizationUsed: (from, nonce) => authorizationUsed(mover, from, nonce),
    checkRelayed: (row) => checkRelayed(mover.relayer, row),
    describeFailure: describeMoveFailure,
  };
}
