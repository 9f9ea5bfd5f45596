import { deflateRawSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { crc32, type InflateCaps, inflateZipEntry } from "./zip-inflate.js";
import { type ZipEntry, assertNoOverlap } from "./zip-directory.js";

const CAPS: InflateCaps = { totalBytes: 20_000_000, entryBytes: 10_000_000, ratio: 200, ratioFloor: 1024 * 1024 };

/** Text that compresses about 3:1 (hex digits of a counter's hash-like walk). */
function text(length: number): Uint8Array {
  const out = new Uint8Array(length);
  let state = 12345;
  for (let index = 0; index < length; index += 1) {
    state = (state * 1103515245 + 12345) >>> 0;
    out[index] = "0123456789abcdef".charCodeAt((state >>> 16) & 15);
  }
  return out;
}

/** An archive holding just the entry's data at offset 0, and the entry that describes it. */
function entryOf(data: Uint8Array, overrides: Partial<ZipEntry> = {}): { bytes: Uint8Array; entry: ZipEntry } {
  const compressed = new Uint8Array(deflateRawSync(data));
  return {
    bytes: compressed,
    entry: {
      name: "demo/file",
      method: 8,
      flags: 0,
      declaredSize: data.length,
      compressedSize: compressed.length,
      crc: crc32(data),
      mode: 0,
      localHeaderOffset: 0,
      ...overrides,
    },
  };
}

const range = (bytes: Uint8Array) => ({ start: 0, end: bytes.length });
const same = (left: Uint8Array, right: Uint8Array) => Buffer.from(left).equals(Buffer.from(right));

describe("inflateZipEntry", () => {
  it("inflates a Deflate entry and checks its size and CRC-32", async () => {
    const data = text(300_000);
    const { bytes, entry } = entryOf(data);
    expect(same(await inflateZipEntry(bytes, entry, range(bytes), CAPS, { produced: 0 }), data)).toBe(true);
    await expect(inflateZipEntry(bytes, { ...entry, crc: entry.crc ^ 1 }, range(bytes), CAPS, { produced: 0 })).rejects.toMatchObject({
      code: "invalid_arguments",
      message: expect.stringContaining("does not match its declared size and checksum"),
    });
    const stored = text(1000);
    const storedEntry = { ...entry, method: 0, declaredSize: 1000, compressedSize: 1000, crc: crc32(stored) };
    expect(same(await inflateZipEntry(stored, storedEntry, range(stored), CAPS, { produced: 0 }), stored)).toBe(true);
  });

  it("refuses as soon as an entry inflates past its declared size, naming that cap", async () => {
    const { bytes, entry } = entryOf(new Uint8Array(8_000_000));
    const tally = { produced: 0 };
    await expect(inflateZipEntry(bytes, { ...entry, declaredSize: 16 }, range(bytes), CAPS, tally)).rejects.toMatchObject({
      code: "too_large",
      message: expect.stringContaining("declared size of 16 bytes (its size cap)"),
    });
    // One bounded step, not the 8 MB the data holds.
    expect(tally.produced).toBeLessThan(3_000_000);
  });

  it("refuses the per-file cap from the declared size, the total cap across entries and the ratio cap", async () => {
    const { bytes, entry } = entryOf(text(2_000_000));
    await expect(inflateZipEntry(bytes, entry, range(bytes), { ...CAPS, entryBytes: 1_000_000 }, { produced: 0 })).rejects.toMatchObject({
      message: expect.stringContaining("the per-file cap"),
    });
    await expect(inflateZipEntry(bytes, entry, range(bytes), CAPS, { produced: 19_000_000 })).rejects.toMatchObject({
      message: expect.stringContaining("(the total cap)"),
    });
    const zeros = entryOf(new Uint8Array(5_000_000));
    await expect(inflateZipEntry(zeros.bytes, zeros.entry, range(zeros.bytes), CAPS, { produced: 0 })).rejects.toMatchObject({
      code: "too_large",
      message: expect.stringContaining("the compression-ratio cap"),
    });
    // Under the floor, a very compressible file is fine.
    const small = entryOf(new Uint8Array(500_000));
    expect((await inflateZipEntry(small.bytes, small.entry, range(small.bytes), CAPS, { produced: 0 })).length).toBe(500_000);
  });

  it("gives the event loop turns while it inflates, and stops on abort", async () => {
    const { bytes, entry } = entryOf(text(9_000_000));
    let turns = 0;
    let running = true;
    const tick = () => {
      turns += 1;
      if (running) setImmediate(tick);
    };
    setImmediate(tick);
    const data = await inflateZipEntry(bytes, entry, range(bytes), CAPS, { produced: 0 });
    running = false;
    expect(data.length).toBe(9_000_000);
    expect(turns).toBeGreaterThan(1);
    const controller = new AbortController();
    const aborted = inflateZipEntry(bytes, entry, range(bytes), CAPS, { produced: 0 }, controller.signal);
    controller.abort();
    await expect(aborted).rejects.toMatchObject({ name: "AbortError" });
  });

  it("refuses encrypted entries and unknown methods", async () => {
    const { bytes, entry } = entryOf(text(10));
    await expect(inflateZipEntry(bytes, { ...entry, flags: 1 }, range(bytes), CAPS, { produced: 0 })).rejects.toMatchObject({
      message: expect.stringContaining("encrypted"),
    });
    await expect(inflateZipEntry(bytes, { ...entry, method: 12 }, range(bytes), CAPS, { produced: 0 })).rejects.toMatchObject({
      message: expect.stringContaining("method 12"),
    });
  });
});

describe("assertNoOverlap", () => {
  it("refuses entries whose data ranges overlap", () => {
    expect(() =>
      assertNoOverlap([
        { name: "a", header: 0, end: 100 },
        { name: "b", header: 100, end: 200 },
      ]),
    ).not.toThrow();
    expect(() =>
      assertNoOverlap([
        { name: "b", header: 50, end: 200 },
        { name: "a", header: 0, end: 100 },
      ]),
    ).toThrow("a and b share their data");
  });
});
