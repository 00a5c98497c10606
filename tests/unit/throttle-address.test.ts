/** The address a login is throttled under: IPv4 as it is, IPv4-mapped IPv6 as IPv4, other IPv6 by its /64. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { throttleAddressOf } from "../../src/services/accounts/throttle-address";

describe("throttleAddressOf", () => {
  it("keeps IPv4 and unwraps IPv4-mapped IPv6", () => {
    assert.equal(throttleAddressOf("203.0.113.5"), "203.0.113.5");
    assert.equal(throttleAddressOf("::ffff:203.0.113.5"), "203.0.113.5");
    assert.equal(throttleAddressOf("::FFFF:cb00:7105"), "203.0.113.5");
  });

  it("groups IPv6 by its /64, however it is written", () => {
    assert.equal(throttleAddressOf("2001:db8:1:2::1"), "2001:db8:1:2::/64");
    assert.equal(throttleAddressOf("2001:0DB8:0001:0002:ffff:0:0:9"), "2001:db8:1:2::/64");
    assert.equal(throttleAddressOf("fe80::1%eth0"), "fe80:0:0:0::/64");
    assert.equal(throttleAddressOf("::1"), "0:0:0:0::/64");
    assert.equal(throttleAddressOf("2001:db8::"), "2001:db8:0:0::/64");
    assert.equal(throttleAddressOf("64:ff9b::192.0.2.1"), "64:ff9b:0:0::/64");
    assert.notEqual(throttleAddressOf("2001:db8:1:3::1"), throttleAddressOf("2001:db8:1:2::1"));
  });

  it("names a missing address 'unknown' and keeps anything else, cut to 64 characters", () => {
    assert.equal(throttleAddressOf(null), "unknown");
    assert.equal(throttleAddressOf(""), "unknown");
    assert.equal(throttleAddressOf("unknown"), "unknown");
    assert.equal(throttleAddressOf(`proxy-${"x".repeat(500)}`), `proxy-${"x".repeat(58)}`);
  });
});
