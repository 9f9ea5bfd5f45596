/**
 * English function words: they carry almost no meaning of their own, so a
 * text's vector is built from its other words (a text of stop words only
 * falls back to them, see the embedder).
 */

/** Lower-case English stop words, including the stems left by contractions (`don`, `isn`, `ll`, `ve`). */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    "a about above after again against all also am an and any are aren as at be because been before being below between both but by " +
    "can cannot could couldn did didn do does doesn doing don down during each else ever few for from further get gets got had hadn has hasn " +
    "have haven having he her here hers herself him himself his how however i if in into is isn it its itself just let ll me might more most " +
    "must mustn my myself no nor not now of off on once only or other ought our ours ourselves out over own re same shall shan she should " +
    "shouldn so some such than that the their theirs them themselves then there these they this those through to too under until up upon " +
    "us ve very was wasn we were weren what when where whether which while who whom whose why will with won would wouldn yet you your " +
    "yours yourself yourselves"
  ).split(" "),
);
