import { quoteShellWord } from "./shell-quote.js";
import { supervisorSource } from "./remote-supervisor-script.js";

/** The Perl the supervisor runs on, by absolute path (the remote PATH is the model's to change). */
export const SUPERVISOR_PERL = "/usr/bin/perl";

/** The first word of a supervisor's process name (`agent-tools-supervisor <tag>`). */
export const SUPERVISOR_LABEL = "agent-tools-supervisor";

/**
 * Perl's own environment hooks (a module loaded by `PERL5OPT=-M...` from a
 * `PERL5LIB` folder runs inside the interpreter before its program). The
 * login environment of the account (`~/.ssh/environment`, sshd's `SetEnv`)
 * is the model's to change, so the supervisor's Perl never sees them; the
 * command gets them back as they were.
 */
const PERL_HOOKS = ["PERL5OPT", "PERL5LIB", "PERLLIB", "PERL5DB", "PERLIO", "PERL_UNICODE", "PERL_HASH_SEED_DEBUG"] as const;

/** Shell words that move each set Perl hook to `AGENT_TOOLS_SAVED_<name>` and unset it (fixed names: the eval parses no value). */
function hidePerlHooks(): string {
  return (
    `for n in ${PERL_HOOKS.join(" ")}; do eval ` +
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion, not a template
    '"if [ -n \\"\\${$n+x}\\" ]; then AGENT_TOOLS_SAVED_$n=\\"\\$$n\\"; export AGENT_TOOLS_SAVED_$n; fi; unset $n"; done'
  );
}

/** Shell words that give the command back the Perl hooks {@link hidePerlHooks} moved aside. */
function restorePerlHooks(): string {
  return (
    `for n in ${PERL_HOOKS.join(" ")}; do eval ` +
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion, not a template
    '"if [ -n \\"\\${AGENT_TOOLS_SAVED_$n+x}\\" ]; then $n=\\"\\$AGENT_TOOLS_SAVED_$n\\"; export $n; unset AGENT_TOOLS_SAVED_$n; fi"; done'
  );
}

/** What the probe printed: the prctl syscall number of the remote architecture. */
const PROBE_LINE = /^AT_SUPERVISOR (\d+)$/m;

/**
 * The probe: prints `AT_SUPERVISOR <prctl syscall number>` when
 * `/usr/bin/perl` runs, the kernel is Linux with a readable `/proc`, the
 * architecture (Perl's `archname`) is one whose prctl number is known
 * (x86_64 157; aarch64, riscv64, loongarch64 167; i386, arm, s390x 172;
 * powerpc 171; not x32) and `PR_SET_CHILD_SUBREAPER` takes (read back with
 * `PR_GET_CHILD_SUBREAPER`); prints nothing otherwise.
 */
export function supervisorProbeScript(): string {
  const perl = [
    "use Config; my $a = $Config{archname}; exit 1 unless $^O eq 'linux' && -r '/proc/self/stat';",
    "my $n = $a =~ /x32/ ? 0 : $a =~ /^x86_64-/ ? 157 : $a =~ /^(aarch64|riscv64|loongarch64)-/ ? 167",
    "  : $a =~ /^(i[3-6]86|arm[^6]|arm-|s390x)/ ? 172 : $a =~ /^(powerpc|ppc)/ ? 171 : 0;",
    "exit 1 unless $n; syscall($n, 36, 1, 0, 0, 0) == 0 or exit 1;",
    'my $v = pack("i", 0); syscall($n, 37, $v, 0, 0, 0) == 0 or exit 1; unpack("i", $v) == 1 or exit 1;',
    'print "AT_SUPERVISOR $n\\n";',
  ].join("\n");
  return `unset ${PERL_HOOKS.join(" ")}; [ -x ${SUPERVISOR_PERL} ] && ${SUPERVISOR_PERL} -e ${quoteShellWord(perl)} 2>/dev/null; true`;
}

/** The prctl syscall number a probe's output names, or undefined (no supervisor on that machine). */
export function parseSupervisorProbe(output: string): number | undefined {
  const match = PROBE_LINE.exec(output);
  return match ? Number(match[1]) : undefined;
}

/** How the supervisor starts its command. */
export interface SupervisedCommand {
  /** `exec`: the command leads a new session (a runner's process); `pty`: it stays in the terminal's session (an interactive shell). */
  readonly mode: "exec" | "pty";
  /** The prctl syscall number the probe found. */
  readonly prctl: number;
  /** Letters, digits, `_`, `-`: the supervisor's process name is `agent-tools-supervisor <name>`. */
  readonly name: string;
  /** The `/bin/sh -c` script of the command. */
  readonly script: string;
}

/**
 * The command line (for the login shell of an exec channel) that runs
 * `script` under the remote supervisor (see `remote-supervisor-script.ts`).
 *
 * @example
 * supervisedCommandLine({ mode: "exec", prctl: 157, name: "r1a2_1", script: "make test" });
 */
export function supervisedCommandLine(command: SupervisedCommand): string {
  if (!/^[A-Za-z0-9_-]+$/.test(command.name) || !Number.isSafeInteger(command.prctl)) throw new Error("supervisedCommandLine: bad name or prctl number");
  const script = `${restorePerlHooks()}\n${command.script}`;
  const words = [command.mode, String(command.prctl), `${SUPERVISOR_LABEL} ${command.name}`, script].map((word) => quoteShellWord(word));
  return `${hidePerlHooks()}; exec ${SUPERVISOR_PERL} -e ${quoteShellWord(supervisorSource())} ${words.join(" ")}`;
}
