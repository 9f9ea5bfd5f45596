import { describe, expect, it } from "vitest";
import { chromiumAvailability } from "./chromium.js";

describe("chromiumAvailability", () => {
  const missing = "/nonexistent/chromium-for-this-test";

  it("skips with a reason naming the setup step when the browser is missing outside CI", () => {
    const availability = chromiumAvailability({}, missing);
    expect(availability.skip).toBe(true);
    expect(availability.reason).toContain(missing);
    expect(availability.reason).toContain("scripts/setup.sh");
    expect(chromiumAvailability({ CI: "false" }, missing).skip).toBe(true);
  });

  it("never skips in CI, so a missing browser fails the run", () => {
    expect(chromiumAvailability({ CI: "true" }, missing)).toEqual({ skip: false });
    expect(chromiumAvailability({ CI: "1" }, missing)).toEqual({ skip: false });
  });

  it("runs when the executable is there", () => {
    expect(chromiumAvailability({}, process.execPath)).toEqual({ skip: false });
  });
});
