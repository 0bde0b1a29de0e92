import { describe, expect, test } from "vitest";
import {
  hasBearerToken,
  isLocalRequest,
  isLoopbackAddress,
  isOperationalRequestAllowed,
  publicPortTrustsLocal,
} from "./operationalAccess.ts";

const request = (peer: string | undefined, headers: Record<string, string>) => ({
  peer,
  header: (name: string) => headers[name],
});
const TOKEN = "0123456789abcdef0123456789abcdef";

describe("isLoopbackAddress", () => {
  test("127.0.0.0/8 and ::1, in every spelling Node reports", () => {
    for (const address of ["127.0.0.1", "127.8.9.10", "::1", "0:0:0:0:0:0:0:1", "::ffff:127.0.0.1"])
      expect(isLoopbackAddress(address)).toBe(true);
    for (const address of ["10.0.0.1", "192.0.2.2", "::2", "::ffff:10.0.0.1", "localhost", ""])
      expect(isLoopbackAddress(address)).toBe(false);
    expect(isLoopbackAddress(undefined)).toBe(false);
  });
});

describe("isLocalRequest", () => {
  test("a loopback peer naming this machine, as curl or Prometheus on this host send it", () => {
    expect(isLocalRequest(request("127.0.0.1", { host: "127.0.0.1:3000" }))).toBe(true);
    expect(isLocalRequest(request("::1", { host: "localhost:3000" }))).toBe(true);
    expect(isLocalRequest(request("::ffff:127.0.0.1", { host: "[::1]:9464" }))).toBe(true);
    // A page of this machine's own origin (the outbox in a browser).
    expect(
      isLocalRequest(
        request("127.0.0.1", { host: "localhost:3000", origin: "http://localhost:3000" }),
      ),
    ).toBe(true);
  });

  test("not from another machine, nor through a reverse proxy, nor for another site's page", () => {
    expect(isLocalRequest(request("192.0.2.7", { host: "127.0.0.1:3000" }))).toBe(false);
    expect(isLocalRequest(request(undefined, { host: "127.0.0.1:3000" }))).toBe(false);
    // A proxy on this host connects from loopback, and says it forwards.
    for (const header of ["x-forwarded-for", "forwarded", "x-real-ip"])
      expect(
        isLocalRequest(request("127.0.0.1", { host: "127.0.0.1:3000", [header]: "203.0.113.9" })),
      ).toBe(false);
    // DNS rebinding: the browser connects to 127.0.0.1 for evil.example.
    expect(isLocalRequest(request("127.0.0.1", { host: "evil.example:3000" }))).toBe(false);
    expect(isLocalRequest(request("127.0.0.1", {}))).toBe(false);
    // Another site's page fetching from this machine.
    expect(
      isLocalRequest(
        request("127.0.0.1", { host: "localhost:3000", origin: "https://evil.example" }),
      ),
    ).toBe(false);
  });
});

describe("operational endpoints", () => {
  test("from elsewhere only with the operator's bearer token", () => {
    const remote = (authorization?: string) =>
      request("192.0.2.7", { host: "remit.example", ...(authorization ? { authorization } : {}) });
    expect(isOperationalRequestAllowed(remote(`Bearer ${TOKEN}`), TOKEN)).toBe(true);
    expect(isOperationalRequestAllowed(remote(`bearer ${TOKEN}`), TOKEN)).toBe(true);
    expect(isOperationalRequestAllowed(remote(), TOKEN)).toBe(false);
    expect(isOperationalRequestAllowed(remote(`Bearer ${TOKEN}x`), TOKEN)).toBe(false);
    expect(isOperationalRequestAllowed(remote(`Bearer ${TOKEN.slice(1)}`), TOKEN)).toBe(false);
    expect(isOperationalRequestAllowed(remote(`Basic ${TOKEN}`), TOKEN)).toBe(false);
    // Without a configured token nothing unlocks it from elsewhere, not even an empty bearer.
    expect(isOperationalRequestAllowed(remote("Bearer "), undefined)).toBe(false);
    expect(hasBearerToken("Bearer undefined", undefined)).toBe(false);
    // This machine needs no token.
    expect(isOperationalRequestAllowed(request("127.0.0.1", { host: "localhost" }), TOKEN)).toBe(
      true,
    );
  });
});

describe("a published API port", () => {
  test("serves only the token, however local a request looks", () => {
    const lookingLocal = request("127.0.0.1", { host: "127.0.0.1:3000" });
    expect(isOperationalRequestAllowed(lookingLocal, TOKEN, false)).toBe(false);
    expect(isOperationalRequestAllowed(lookingLocal, undefined, false)).toBe(false);
    const withToken = request("127.0.0.1", {
      host: "127.0.0.1:3000",
      authorization: `Bearer ${TOKEN}`,
    });
    expect(isOperationalRequestAllowed(withToken, TOKEN, false)).toBe(true);
  });

  test("is any set-up but loopback HOST and origins, no trusted proxy and a local chain", () => {
    const local = {
      host: "127.0.0.1",
      trustProxy: 0,
      baseUrl: "http://localhost:3000",
      payUrl: "http://localhost:3000",
      localChain: true,
    };
    expect(publicPortTrustsLocal(local)).toBe(true);
    expect(publicPortTrustsLocal({ ...local, host: "::1", baseUrl: "http://[::1]:3000" })).toBe(
      true,
    );
    for (const published of [
      { host: "0.0.0.0" },
      { host: "::" },
      { host: "192.0.2.10" },
      { trustProxy: 1 },
      { baseUrl: "https://api.example.com" },
      { payUrl: "https://pay.example.com" },
      { localChain: false },
    ])
      expect(publicPortTrustsLocal({ ...local, ...published }), JSON.stringify(published)).toBe(
        false,
      );
  });
});
