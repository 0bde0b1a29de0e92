import { describe, expect, test } from "vitest";
import { webhookUrlProblem } from "../../domain/webhookUrlPolicy.ts";

/**
 * Webhook URLs naming a loopback, private or otherwise non-public address in a form the URL
 * parser rewrites (IPv4 embedded in IPv6, odd IPv4 notations) or in a range easily forgotten.
 * Each is refused by the one policy that judges creation and delivery alike.
 */
describe("the webhook URL policy refuses every non-public address form", () => {
  test.each([
    // IPv4-mapped IPv6: the URL parser turns [::ffff:127.0.0.1] into [::ffff:7f00:1]
    "https://[::ffff:127.0.0.1]:8080/",
    "https://[::ffff:7f00:1]/",
    "https://[::ffff:10.0.0.1]/",
    "https://[::ffff:169.254.169.254]/latest/meta-data",
    // NAT64 (64:ff9b::/96 and the local-use 64:ff9b:1::/48)
    "https://[64:ff9b::127.0.0.1]/",
    "https://[64:ff9b::169.254.169.254]/",
    "https://[64:ff9b:1::a00:1]/",
    // 6to4 (2002::/16) of loopback and of the metadata address
    "https://[2002:7f00:1::]/",
    "https://[2002:a9fe:a9fe::1]/",
    // IPv4-compatible (deprecated) and IPv4-translated
    "https://[::127.0.0.1]/",
    "https://[::ffff:0:7f00:1]/",
    // IPv6 special ranges
    "https://[::]/",
    "https://[::1]/",
    "https://[fec0::1]/", // site-local
    "https://[fe80::1]/", // link-local
    "https://[fd00::1]/", // unique local
    "https://[ff02::1]/", // multicast
    "https://[2001::1]/", // Teredo
    "https://[2001:db8::1]/", // documentation
    "https://[100::1]/", // discard-only
    "https://[1::]/", // reserved
    // IPv4 special ranges
    "https://0.0.0.0/",
    "https://100.64.0.1/", // carrier-grade NAT
    "https://198.18.0.1/", // benchmarking
    "https://192.0.0.8/",
    "https://192.0.2.1/",
    "https://240.0.0.1/", // reserved
    "https://255.255.255.255/",
    "https://224.0.0.1/", // multicast
    // IPv4 notations the URL parser normalises
    "https://2130706433/",
    "https://0x7f.1/",
    "https://127.1/",
    // names for loopback
    "https://localhost./",
    "https://api.localhost./",
  ])("refuses %s", (url) => {
    expect(webhookUrlProblem(url)).toMatch(/must not point at/);
  });

  test.each([
    "https://hooks.example.com/x",
    "https://8.8.8.8/",
    "https://[2606:4700:4700::1111]/",
    // judged by the public IPv4 they embed
    "https://[::ffff:8.8.8.8]/",
    "https://[64:ff9b::8.8.8.8]/",
    "https://[2002:808:808::1]/",
  ])("allows %s", (url) => {
    expect(webhookUrlProblem(url)).toBeNull();
  });
});
