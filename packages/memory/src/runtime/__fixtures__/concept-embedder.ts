/**
 * A test embedder with one axis per concept: a text's vector counts the
 * concept words it holds, so "puppy" is near "hound" without sharing a word.
 */
import { FunctionEmbeddingClient, type FunctionEmbeddingClientOptions } from "../../testing/function-embedding-client.js";

/** Concepts and their words (whole words, lower case). */
export const CONCEPTS: readonly (readonly string[])[] = [
  ["dog", "dogs", "puppy", "puppies", "hound", "canine", "terrier"],
  ["pizza", "pasta", "restaurant", "lunch", "dinner", "meal", "trattoria"],
  ["flight", "airport", "plane", "trip", "vacation", "holiday", "airline"],
  ["typescript", "compiler", "build", "refactor", "bundler"],
];

/** The concept vector of `text` (all zero when it holds no concept word). */
export function conceptVector(text: string): number[] {
  const words = text.toLowerCase().match(/[a-z]+/g) ?? [];
  return CONCEPTS.map((concept) => words.filter((word) => concept.includes(word)).length);
}

/** A {@link FunctionEmbeddingClient} over {@link CONCEPTS}. */
export function conceptEmbedder(options: Partial<FunctionEmbeddingClientOptions> = {}): FunctionEmbeddingClient {
  return new FunctionEmbeddingClient({ dimension: CONCEPTS.length, modelId: "test:concepts@4", vectorOf: conceptVector, ...options });
}
