import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildBuiltinToolRegistry } from "../../packages/sdk/src/index.js";
import { HOST_USER_NAMESPACE, NO_CAPABILITIES, bash, hostVisible, sandboxed, skipReason, workspace, openRegistries } from "./sandbox-attack-harness.js";

describe.skipIf(skipReason !== undefined)("sandbox attacks: capabilities, mounts and hidden paths", () => {
  it("a confined command has no capability at all and its own user namespace (also when the host runs as root)", async () => {
    const { registry } = await sandboxed();
    const { output } = await bash(registry, "grep -E '^Cap(Eff|Prm|Bnd|Amb):' /proc/self/status; echo userns=$(readlink /proc/self/ns/user)");
    for (const set of ["CapEff", "CapPrm", "CapBnd", "CapAmb"]) expect(output).toMatch(new RegExp(`^${set}:\\s+${NO_CAPABILITIES}$`, "m"));
    const namespace = /^userns=(\S+)$/m.exec(output)?.[1];
    expect(namespace).toMatch(/^user:\[\d+\]$/);
    expect(namespace).not.toBe(HOST_USER_NAMESPACE);
  });

  it("the kernel's global settings are read-only inside: /proc/sys and /proc/sysrq-trigger refuse a write (a root host's uid 0 passed their owner check)", async () => {
    // Each setting is written back with its current value, so a sandbox that lets the write through changes nothing on the host.
    // As root, a writable kernel/core_pattern or kernel/modprobe runs a program of the command's choosing on the host, unconfined.
    const settings = ["kernel/core_pattern", "kernel/modprobe", "vm/min_free_kbytes", "vm/swappiness", "kernel/pid_max"].filter((name) =>
      fs.existsSync(`/proc/sys/${name}`),
    );
    expect(settings.length).toBeGreaterThan(0);
    const { registry } = await sandboxed();
    const { output } = await bash(
      registry,
      [
        ...settings.map(
          (name) => `v=$(cat /proc/sys/${name}) && printf '%s\\n' "$v" > /proc/sys/${name} && echo "${name}: written" || echo "${name}: refused"`,
        ),
        `if [ -e /proc/sysrq-trigger ]; then { : > /proc/sysrq-trigger; } 2>/dev/null && echo "sysrq: written" || echo "sysrq: refused"; fi`,
        "true",
      ].join("; "),
    );
    for (const name of settings) expect(output).toContain(`${name}: refused`);
    expect(output).not.toContain(": written");
  });

  it("a read-only root inside a sandbox writable root cannot be renamed away to become writable", async () => {
    const { workdir, dataDir, base } = workspace();
    const outer = path.join(base, "outer");
    const vendor = path.join(outer, "lib", "vendor");
    fs.mkdirSync(vendor, { recursive: true });
    fs.writeFileSync(path.join(vendor, "pinned.txt"), "PINNED\n");
    const registry = await buildBuiltinToolRegistry({
      workdir,
      dataDir,
      sandbox: { enabled: true, writableRoots: [outer] },
      additionalRoots: [{ alias: "vendor", path: vendor, access: "read" }],
    });
    openRegistries.add(registry);
    await bash(registry, `cd ${outer} && mv lib lib2; true`);
    await bash(registry, `cd ${outer} && echo tampered > lib2/vendor/pinned.txt; echo tampered > lib/vendor/pinned.txt; mv lib2 lib; true`);
    expect(fs.readFileSync(path.join(vendor, "pinned.txt"), "utf8")).toBe("PINNED\n");
    // Control: a plain folder beside it can be renamed and written.
    await bash(registry, `cd ${outer} && mkdir -p other && mv other other2 && echo ok > other2/x`);
    expect(fs.readFileSync(path.join(outer, "other2", "x"), "utf8")).toBe("ok\n");
  });

  it("a dataDir inside the workspace cannot be renamed away either: the next command still sees it masked", async () => {
    const { workdir } = workspace();
    const dataDir = path.join(workdir, ".agent", "data");
    fs.mkdirSync(dataDir, { recursive: true });
    const registry = await buildBuiltinToolRegistry({ workdir, dataDir, sandbox: { enabled: true } });
    openRegistries.add(registry);
    fs.writeFileSync(path.join(dataDir, "host-state.txt"), "HOST-DATA\n");
    await bash(registry, "mv .agent moved; mv .agent/data .agent/data2; true");
    const { output } = await bash(
      registry,
      "cat moved/data/host-state.txt .agent/data2/host-state.txt .agent/data/host-state.txt; echo changed > .agent/data/host-state.txt; true",
    );
    expect(output).not.toContain("HOST-DATA");
    expect(fs.readFileSync(path.join(dataDir, "host-state.txt"), "utf8")).toBe("HOST-DATA\n");
  });

  it("a hidden path inside the workspace cannot be renamed away: its folders stay put, and the next command still finds it hidden", async () => {
    // The home (or a folder holding secrets) inside a writable root: the workspace is its parent.
    const { workdir, dataDir } = workspace();
    const home = path.join(workdir, "home");
    const deep = path.join(workdir, "a", "b");
    for (const folder of [path.join(home, ".ssh"), path.join(deep, ".aws"), path.join(workdir, "plain")]) fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(path.join(home, ".ssh", "id_rsa"), "PRIVATE-KEY-SSH\n");
    fs.writeFileSync(path.join(home, ".netrc"), "PRIVATE-NETRC\n");
    fs.writeFileSync(path.join(deep, ".aws", "credentials"), "PRIVATE-AWS\n");
    const hidden = [path.join(home, ".ssh"), path.join(home, ".netrc"), path.join(deep, ".aws")];
    const confined = await buildBuiltinToolRegistry({ workdir, dataDir, sandbox: { enabled: true, hiddenPaths: hidden } });
    openRegistries.add(confined);
    // The renames a command would make so that the next one's hidden paths (computed by path) miss the secrets.
    await bash(confined, "mv home moved; mv a a2; mv a/b a/b2; mv home/.ssh home/ssh2; mv home/.netrc home/netrc2; mv plain plain2; true");
    const { output } = await bash(
      confined,
      "cat home/.ssh/id_rsa home/.netrc moved/.ssh/id_rsa moved/.netrc home/ssh2/id_rsa home/netrc2 a/b/.aws/credentials a2/b/.aws/credentials a/b2/.aws/credentials; true",
    );
    expect(output).not.toMatch(/PRIVATE-/);
    // On the host everything is where it was; the control folder beside them was renamed.
    expect(fs.readFileSync(path.join(home, ".ssh", "id_rsa"), "utf8")).toBe("PRIVATE-KEY-SSH\n");
    expect(fs.readFileSync(path.join(home, ".netrc"), "utf8")).toBe("PRIVATE-NETRC\n");
    expect(fs.readFileSync(path.join(deep, ".aws", "credentials"), "utf8")).toBe("PRIVATE-AWS\n");
    expect(fs.existsSync(path.join(workdir, "plain2"))).toBe(true);
  });

  it("umount of a hidden directory or file fails, and the hidden content stays unreadable", async () => {
    const home = fs.mkdtempSync(path.join(hostVisible, "home-"));
    fs.mkdirSync(path.join(home, ".ssh"));
    fs.writeFileSync(path.join(home, ".ssh", "id_rsa"), "PRIVATE-KEY-SSH\n");
    fs.writeFileSync(path.join(home, ".netrc"), "PRIVATE-NETRC\n");
    fs.writeFileSync(path.join(home, "notes.txt"), "visible notes\n");
    const hidden = [path.join(home, ".ssh"), path.join(home, ".netrc")];
    const { registry } = await sandboxed({ sandbox: { enabled: true, hiddenPaths: hidden } });
    const { output } = await bash(
      registry,
      [
        `cat ${home}/notes.txt`,
        `umount ${home}/.ssh; umount -l ${home}/.ssh; umount ${home}/.netrc; umount -l ${home}/.netrc`,
        `cat ${home}/.ssh/id_rsa ${home}/.netrc`,
        // A user namespace of its own inside the sandbox gives capabilities there, but not over the sandbox's mounts.
        `unshare -Urm sh -c 'umount -l ${home}/.ssh; umount -l ${home}/.netrc; cat ${home}/.ssh/id_rsa ${home}/.netrc'`,
        "true",
      ].join("; "),
    );
    expect(output).toContain("visible notes");
    expect(output).not.toContain("PRIVATE-KEY-SSH");
    expect(output).not.toContain("PRIVATE-NETRC");
  });

  it("remounting the root read-write (also after umount -l /tmp) and bind-mounting outside into the workspace fail: nothing is written on the host", async () => {
    const outside = fs.mkdtempSync(path.join(hostVisible, "outside-"));
    const { registry, workdir } = await sandboxed();
    const attacks = [
      `mount -o remount,rw,bind /; echo escaped > ${outside}/remount.txt`,
      `umount -l /tmp; mount -o remount,rw,bind /; echo escaped > ${outside}/after-umount.txt`,
      `mount -o remount,rw /; echo escaped > ${outside}/remount-plain.txt`,
      `mkdir -p door && mount --bind ${outside} door; echo escaped > door/through-bind.txt`,
      `mount -t tmpfs none ${outside}; echo escaped > ${outside}/over-tmpfs.txt; umount -l /; echo escaped > ${outside}/after-root-umount.txt`,
    ];
    for (const attack of attacks) {
      const { output } = await bash(registry, `${attack}; echo done`);
      expect(output).toContain("done");
    }
    expect(fs.readdirSync(outside)).toEqual([]);
    // Control: the workspace is writable, so the writes above failed because of the sandbox.
    const { result } = await bash(registry, "echo inside > control.txt");
    expect(result.isError).toBe(false);
    expect(fs.readFileSync(path.join(workdir, "control.txt"), "utf8")).toBe("inside\n");
  });
});

/** Starts a Unix-socket server on `address` that greets every client; returns its close. */
