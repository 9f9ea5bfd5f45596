/**
 * The Perl source of the remote supervisor (see `remote-supervisor.ts`),
 * run as `/usr/bin/perl -e <source> <mode> <prctl> <label> <script>`.
 *
 * Two Perl processes stand above the command, both Linux child subreapers
 * (`prctl(PR_SET_CHILD_SUBREAPER)`), so every process the command starts
 * stays below them whatever it does (setsid, double fork, a cleared
 * environment): an orphan is re-parented to the nearest living subreaper
 * above it instead of init.
 *
 * Both processes are non-dumpable (`prctl(PR_SET_DUMPABLE, 0)`, inherited by the fork
 * and reset by the command's `exec`), so the command cannot ptrace them or
 * open their `/proc/<pid>/fd`.
 *
 * - P, the exec channel's own process, forks S and exits with the command's
 *   status once S reports it on a pipe (after reaping S when S had nothing
 *   else left to hold, so no zombie is left to init) (it kills itself with the signal that
 *   ended the command, so the server reports the same `exit-signal`). When S
 *   dies before reporting (killed from inside the command), P inherits the
 *   tree and kills all of it. In `pty` mode a SIGHUP or SIGTERM (the terminal
 *   closed) asks S to kill the tree.
 * - S forks the command C (its own session in `exec` mode; in `pty` mode C
 *   stays in the terminal's session), reports C's pid and then its status to
 *   P, and reaps everything re-parented to it until nothing is left. SIGTERM
 *   forwards SIGTERM to every descendant; SIGUSR1 (or P's death before the
 *   report, through PR_SET_PDEATHSIG) freezes every descendant with SIGSTOP
 *   until a scan of `/proc` finds no new one (so a fork bomb cannot outrun
 *   it), SIGKILLs them, reaps, and repeats until none is left. In `pty` mode
 *   the end of C ends the rest of the tree too.
 *
 * Neither is in the command's process group, so the group kill the runner
 * sends does not end them before they cleaned up. Both ignore SIGHUP in
 * `exec` mode (an `isolated` process survives the connection) and SIGINT,
 * SIGQUIT, SIGTSTP, SIGPIPE; C gets the default dispositions back before
 * it `exec`s `/bin/sh -c <script>`. Only core Perl is used (no module but
 * `Config`, loaded to name a signal): each command pays about 2 ms of
 * Perl start-up. SIGUSR2 is 12 and WNOHANG 1 on every architecture the
 * probe accepts.
 */
const SOURCE = String.raw`
use strict;
my ($mode, $nr, $label, $script) = @ARGV;
my $pty = $mode eq 'pty';
# setsid by syscall number (x86_64 112; the generic table 157; i386, arm, powerpc, s390x 66): no module to load.
my $setsid = { 157 => 112, 167 => 157, 171 => 66, 172 => 66 }->{$nr};
my ($kill, $term, $cpid, $status) = (0, 0, 0, undef);
sub below { my ($root) = @_; my %kids; opendir(my $d, '/proc') or return ();
  for my $p (grep { /^\d+$/ } readdir $d) { open(my $f, '<', "/proc/$p/stat") or next; my $l = <$f>; close $f;
    next unless defined $l && $l =~ /.*\)\s+(\S)\s+(\d+)/s; next if $1 eq 'Z' || $1 eq 'X'; push @{$kids{$2}}, $p }
  closedir $d; my (@out, @todo); @todo = ($root);
  while (@todo) { my $p = shift @todo; for my $c (@{$kids{$p} || []}) { push @out, $c; push @todo, $c } }
  return @out }
sub reap { while (1) { my $p = waitpid(-1, 1); return $p == 0 if $p <= 0; $status = $? if $p == $cpid } }
sub kill_all { for my $round (1 .. 600) { my %seen;
    for (1 .. 10000) { my @n = grep { !$seen{$_}++ } below($$); last unless @n; kill 'STOP', @n }
    reap(); last unless %seen; kill 'KILL', keys %seen; select(undef, undef, undef, 0.01); reap() } }
sub quiet { $SIG{$_} = 'IGNORE' for ('INT', 'QUIT', 'TSTP', 'PIPE', $pty ? () : 'HUP') }
sub finish { my ($st) = @_; if (defined $st && ($st & 127)) { my $sig = $st & 127; require Config; my @names = split ' ', $Config::Config{sig_name};
    $SIG{$names[$sig]} = 'DEFAULT' if $names[$sig]; kill $sig, $$; select(undef, undef, undef, 0.5); exit(128 + $sig) }
  exit(defined $st ? ($st >> 8) : 255) }
sub quiet_io { open(STDIN, '<', '/dev/null'); open(STDOUT, '>', '/dev/null'); open(STDERR, '>', '/dev/null'); chdir '/' }
quiet(); syscall($nr, 36, 1, 0, 0, 0) == 0 or die "agent-tools supervisor: prctl: $!\n"; syscall($nr, 4, 0, 0, 0, 0);
my $ppid = $$;
pipe(my $r, my $w) or die "agent-tools supervisor: pipe: $!\n";
my $s = fork; defined $s or die "agent-tools supervisor: fork: $!\n";
if ($s == 0) {
  close $r; syscall($nr, 36, 1, 0, 0, 0); syscall($nr, 1, 12, 0, 0, 0);
  my ($reported, $woke) = (0, 0);
  pipe(my $wr, my $ww) or exit 126;
  my $wake = sub { syswrite $ww, 'x' unless $woke++ };
  $SIG{USR1} = sub { $kill = 1; $wake->() }; $SIG{TERM} = sub { $term = 1; $wake->() }; $SIG{CHLD} = $wake;
  $SIG{USR2} = sub { unless ($reported) { $kill = 1; $wake->() } };
  $SIG{HUP} = $SIG{USR1} if $pty;
  exit 1 if getppid() != $ppid;
  $cpid = fork; defined $cpid or exit 126;
  if ($cpid == 0) { close $w; close $wr; close $ww; $SIG{$_} = 'DEFAULT' for qw(INT QUIT TSTP PIPE HUP TERM USR1 USR2 CHLD);
    syscall($setsid) if !$pty && $setsid; exec { '/bin/sh' } '/bin/sh', '-c', $script, 'agent-tools'; exit 127 }
  syswrite $w, "c $cpid\n"; quiet_io(); $0 = $label;
  while (1) {
    my $left = reap();
    if ($kill) { kill_all(); $left = reap() } elsif ($term) { $term = 0; my @p = below($$); kill 'TERM', @p if @p }
    $status = 255 << 8 if !$left && !defined $status;
    if (defined $status && !$reported) { $reported = 1; syswrite $w, "s $status " . ($left || $pty ? 0 : 1) . "\n"; close $w; if ($pty) { $kill = 1; next } }
    last unless $left;
    my $bits = ''; vec($bits, fileno($wr), 1) = 1;
    select($bits, undef, undef, $kill ? 0.05 : 1);
    if ($woke) { sysread $wr, my $drain, 64; $woke = 0 }
  }
  exit 0;
}
close $w; quiet_io(); $0 = "$label parent";
if ($pty) { $SIG{HUP} = $SIG{TERM} = sub { kill 'USR1', $s } }
my $got = "";
while (1) { my $n = sysread($r, my $buf, 256); last if defined $n && $n == 0; next unless defined $n; $got .= $buf;
  while ($got =~ s/^([cs]) (-?\d+)(?: ([01]))?\n//) { if ($1 eq 'c') { $cpid = $2 } else { my $st = $2; waitpid($s, 0) if $3; finish($st) } } }
$SIG{HUP} = $SIG{TERM} = 'IGNORE';
kill_all(); while ((my $p = waitpid(-1, 0)) > 0) { $status = $? if $p == $cpid }
finish(defined $status ? $status : 9);
`;

/** The supervisor's Perl source, one program for both processes. */
export function supervisorSource(): string {
  return SOURCE.trim();
}
