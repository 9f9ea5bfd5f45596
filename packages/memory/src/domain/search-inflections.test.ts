import { describe, expect, it } from "vitest";
import { inflectionsOf } from "./search-inflections.js";

describe("inflectionsOf", () => {
  it("gives the singular of a plural and the plural of a singular", () => {
    expect(inflectionsOf("hobbies")).toEqual(["hobby"]);
    expect(inflectionsOf("games")).toEqual(["game"]);
    expect(inflectionsOf("boxes")).toEqual(["box"]);
    expect(inflectionsOf("hobby")).toContain("hobbies");
    expect(inflectionsOf("church")).toContain("churches");
    expect(inflectionsOf("show")).toContain("shows");
  });

  it("does not take the s off a word that ends in ss, us or is", () => {
    expect(inflectionsOf("class")).toEqual([]);
    expect(inflectionsOf("campus")).toEqual([]);
    expect(inflectionsOf("analysis")).toEqual([]);
  });

  it("gives the stem of an -ing or -ed form, undoubling its last consonant or giving back its e", () => {
    expect(inflectionsOf("skiing")).toEqual(["skiings", "ski"]);
    expect(inflectionsOf("making")).toEqual(["makings", "mak", "make"]);
    expect(inflectionsOf("stopped")).toEqual(["stopp", "stop"]);
    expect(inflectionsOf("tried")).toEqual(["try"]);
    expect(inflectionsOf("played")).toEqual(["play"]);
  });

  it("gives the -ing and -ed forms of a word without them", () => {
    expect(inflectionsOf("play")).toEqual(["plays", "playing", "played"]);
    expect(inflectionsOf("like")).toEqual(["likes", "liking", "liked"]);
  });

  it("leaves short words, digits and non-ASCII words alone", () => {
    expect(inflectionsOf("go")).toEqual([]);
    expect(inflectionsOf("v8s")).toEqual([]);
    expect(inflectionsOf("café")).toEqual([]);
    expect(inflectionsOf("東京")).toEqual([]);
  });
});
