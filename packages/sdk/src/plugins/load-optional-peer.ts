import { readFileSync } from "node:fs";
import { SdkError } from "@agent-tools/core";
import { isModuleNotFoundError } from "@agent-tools/core/internal";

/**
 * Imports an optional peer package of the sdk through `load`. When the package
 * is not installed this rejects with `SdkError("unsupported")` naming the
 * package and `npm install <package>@<the sdk's version>` (the packages are
 * released together); `details` holds `option`, `package` and `version`. Any
 * other failure to load it is rethrown as is.
 */
export async function loadOptionalPeer<T>(option: string, packageName: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (!isModuleNotFoundError(error, packageName)) throw error;
    const version = sdkVersion();
    const install = version === undefined ? packageName : `${packageName}@${version}`;
    throw new SdkError(
      "unsupported",
      `The ${option} option needs the optional package ${packageName}, which is not installed: npm install ${install} (or leave ${option} out).`,
      { option, package: packageName, ...(version === undefined ? {} : { version }) },
      { cause: error },
    );
  }
}

/** The version in the sdk's package.json (read only to word the install hint). */
function sdkVersion(): string | undefined {
  try {
    const manifest = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version?: unknown };
    return typeof manifest.version === "string" ? manifest.version : undefined;
  } catch {
    return undefined;
  }
}
