/** Paths of the web example that the browser tests use. */
import { fileURLToPath } from "node:url";

/** `examples/web/`. */
export const WEB_EXAMPLE_DIR = fileURLToPath(new URL("../../../", import.meta.url));

/** The repository root. */
export const REPOSITORY_DIR = fileURLToPath(new URL("../../../../../", import.meta.url));

/** The built page: `examples/web/dist/page/`. */
export const PAGE_DIST_DIR = fileURLToPath(new URL("../../../dist/page/", import.meta.url));

/** Where the test run writes its artefacts (ignored by git). */
export const TEST_RESULTS_DIR = fileURLToPath(new URL("../../../test-results/", import.meta.url));

/** Screenshots the browser tests save. */
export const SCREENSHOTS_DIR = fileURLToPath(new URL("../../../test-results/screenshots/", import.meta.url));
