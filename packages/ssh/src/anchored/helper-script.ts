/**
 * The remote side of the anchored file operations: a Perl program (core
 * modules of `perl-base` only: Fcntl, IO::Handle) run as `/usr/bin/perl` over
 * one exec channel, serving one request at a time in length-framed messages
 * on stdin/stdout.
 *
 * Every path is walked from `/` one component at a time with the program's
 * own working directory as the anchor: `lstat(component)` must be a
 * directory, `chdir(component)`, then `stat(".")` must have the device and
 * inode of that `lstat` (else the folder was swapped for something else in
 * between: the walk starts again, and after five tries it is refused with
 * `MOVED`). A symlink on the way is resolved by the walk itself (its target
 * walked the same way), so the directory reached is the one the components
 * name at that moment. A `..` is taken with `chdir("..")` and must land on
 * the device and inode of the directory the walk entered before (a folder
 * moved elsewhere while it was walked, by a rename that keeps its inode,
 * would otherwise take the walk up into its new parent, which the lexical
 * path below does not see: `MOVED`). When the request names a path below the workspace
 * root (`bound`), a directory outside it is refused with `OUTSIDE`. The
 * last component is then acted on relative to that directory only: opened
 * with `O_NOFOLLOW` (reads, after an `lstat` that says it is a regular
 * file, and the same device and inode on the descriptor), created
 * exclusively beside it and renamed over it (writes), unlinked, renamed
 * (the source's directory held by a descriptor, reached through
 * `/proc/self/fd`), made or removed.
 *
 * Frames: a 4-byte big-endian length and that many bytes; 0xFFFFFFFF alone
 * cancels a write's data. A request is `op NUL arg NUL arg ...`; answers
 * start with `O` (done, NUL-separated values), `E` (failed: NUL, a code such
 * as `ENOENT` or `OUTSIDE`, NUL, a message), `D` (bytes of a read) or `Z`
 * (a read's end). Answers are buffered and sent together before the
 * program waits for input again (so a small read is one write). The
 * program greets with `O agent-tools-anchored 1`.
 *
 * `readdir` answers `O`, then `D` frames of `name NUL type NUL ...` (each
 * entry `lstat`ed relative to the directory the walk entered, whose
 * device and inode must be those the walk found), then `Z`.
 *
 * First thing at start the program makes itself non-dumpable
 * (`prctl(PR_SET_DUMPABLE, 0)`, by the architecture's syscall number as the
 * process supervisor's probe picks it, from Perl's `archname`): its
 * `/proc/<pid>/fd` and ptrace are then closed to other processes of the
 * same account (the model's commands), which could otherwise open its
 * stdin and write requests into it. On an architecture not in the table it
 * runs dumpable.
 */

/** The greeting's protocol name and version (the first frame of a started helper). */
export const HELPER_GREETING = "agent-tools-anchored\u00001";

/** The Perl program (no single quote in it: it is passed as one `-e '...'` word). */
export const HELPER_SCRIPT = String.raw`
use strict; use warnings;
BEGIN { require Config; my $a = $Config::Config{archname}; my $n = $a =~ /x32/ ? 0 : $a =~ /^x86_64-/ ? 157 : $a =~ /^(aarch64|riscv64|loongarch64)-/ ? 167 : $a =~ /^(i[3-6]86|arm[^6]|arm-|s390x)/ ? 172 : $a =~ /^(powerpc|ppc)/ ? 171 : 0; syscall($n, 4, 0, 0, 0, 0) if $n; }
use Fcntl qw(:DEFAULT :mode);
use IO::Handle;
binmode STDIN; binmode STDOUT;
$SIG{PIPE} = "IGNORE";
my $CHUNK = 262144;

sub rd { my $n = shift; my $b = ""; while (length($b) < $n) { my $r = sysread(STDIN, $b, $n - length($b), length($b)); if (!defined $r) { next if $!{EINTR}; exit 0; } exit 0 if $r == 0; } return $b; }
sub fin { flush(); my $n = unpack("N", rd(4)); return undef if $n == 4294967295; return $n == 0 ? "" : rd($n); }
my $OUT = "";
sub flush { my $o = 0; while ($o < length($OUT)) { my $w = syswrite(STDOUT, $OUT, length($OUT) - $o, $o); if (!defined $w) { next if $!{EINTR}; exit 0; } $o += $w; } $OUT = ""; }
sub out { $OUT .= pack("N", length($_[0])) . $_[0]; flush() if length($OUT) >= $CHUNK; }
sub ok { out(join("\0", "O", @_)); }
sub E { die { code => $_[0], msg => (defined $_[1] ? $_[1] : "") }; }
sub ename { for my $n (qw(ENOENT ENOTDIR EEXIST EISDIR ENOTEMPTY EACCES EPERM ELOOP ENAMETOOLONG EROFS EXDEV EBUSY ENOSPC EINVAL ENXIO EMLINK EDQUOT)) { return $n if $!{$n}; } return "EIO"; }
sub sys { my $what = shift; my $n = ename(); my $m = "$!"; E($n, "$what: $m"); }
sub inside { my ($root, $p) = @_; return 1 if $root eq "" || $root eq "/"; return $p eq $root || index($p, "$root/") == 0; }
sub parts { return grep { $_ ne "" && $_ ne "." } split(m{/}, $_[0]); }

sub walk1 {
  my ($path, $bound, $follow, $make) = @_;
  my @todo = parts($path);
  chdir("/") or sys("chdir /");
  my @top = stat(".");
  my @at = ();
  my @ids = ("$top[0]:$top[1]");
  my $hops = 0;
  E("EINVAL", "the path has no last component") unless @todo;
  while (@todo) {
    my $name = shift @todo;
    if ($name eq "..") {
      chdir("..") or sys("chdir ..");
      pop @at;
      pop @ids if @ids > 1;
      my @up = stat(".");
      E("MOVED", "a directory on the way was moved while it was walked") unless @up && "$up[0]:$up[1]" eq $ids[-1];
      E("EINVAL", "the path ends in ..") unless @todo;
      next;
    }
    my $last = !@todo;
    my @st = lstat($name);
    my $missing = !@st;
    if ($missing) {
      my $errno = ename();
      if ($errno eq "ENOENT" && $make && !$last) {
        my $dir = "/" . join("/", @at);
        E("OUTSIDE", $dir) unless inside($bound, $dir);
        mkdir($name, 0777) or $!{EEXIST} or sys("mkdir");
        unshift @todo, $name;
        next;
      }
      sys("lstat") unless $last && $errno eq "ENOENT";
    }
    if (!$missing && S_ISLNK($st[2]) && (!$last || $follow)) {
      E("ELOOP", "too many levels of symbolic links") if ++$hops > 40;
      my $target = readlink($name);
      defined $target or sys("readlink");
      if (substr($target, 0, 1) eq "/") { chdir("/") or sys("chdir /"); @at = (); @ids = ("$top[0]:$top[1]"); }
      my @more = parts($target);
      E("EINVAL", "a symbolic link names a directory as the last component") unless @more || @todo;
      unshift @todo, @more;
      next;
    }
    if ($last) {
      my $dir = "/" . join("/", @at);
      E("OUTSIDE", $dir) unless inside($bound, $dir);
      return ($name, \@at, $missing ? undef : \@st);
    }
    E("ENOTDIR", "not a directory") unless S_ISDIR($st[2]);
    chdir($name) or sys("chdir");
    my @here = stat(".");
    E("MOVED", "the directory was swapped while it was entered") unless @here && $here[0] == $st[0] && $here[1] == $st[1];
    push @at, $name;
    push @ids, "$here[0]:$here[1]";
  }
  E("EINVAL", "the path has no last component");
}

sub walk {
  for my $try (1 .. 5) {
    my @r = eval { walk1(@_) };
    return @r if @r;
    my $e = $@;
    die $e unless ref($e) && $e->{code} eq "MOVED" && $try < 5;
  }
}

sub open_read {
  my ($path, $bound) = @_;
  for my $try (1 .. 5) {
    my ($leaf, $at, $st) = walk($path, $bound, 1, 0);
    E("ENOENT", "no such file or directory") unless $st;
    E("EISDIR", "is a directory") if S_ISDIR($st->[2]);
    E("NOTREG", "not a regular file (a FIFO, socket or device)") unless S_ISREG($st->[2]);
    my $fh;
    if (!sysopen($fh, $leaf, O_RDONLY | O_NOFOLLOW | O_NONBLOCK)) { next if $!{ELOOP} || $!{ENXIO}; sys("open"); }
    my @f = stat($fh);
    return ($fh, $f[7]) if @f && $f[0] == $st->[0] && $f[1] == $st->[1];
    close($fh);
  }
  E("MOVED", "the file was swapped while it was opened");
}

sub op_read {
  my ($path, $bound, $start, $end) = @_;
  my ($fh, $size) = open_read($path, $bound);
  ok($size);
  sysseek($fh, $start, 0) if $start > 0;
  my $pos = $start;
  while ($end eq "" || $pos < $end) {
    my $want = $CHUNK;
    $want = $end - $pos if $end ne "" && $end - $pos < $want;
    my $buf;
    my $r = sysread($fh, $buf, $want);
    if (!defined $r) { next if $!{EINTR} || $!{EAGAIN}; my $n = ename(); out(join("\0", "E", $n, "read: $!")); close($fh); return; }
    last if $r == 0;
    out("D" . $buf);
    $pos += $r;
  }
  close($fh);
  out("Z");
}

sub op_small {
  my ($path, $bound, $max) = @_;
  my ($fh) = eval { open_read($path, $bound) };
  if (!$fh) { out("O\0" . "0"); return; }
  my $buf = "";
  sysread($fh, $buf, $max);
  close($fh);
  out("O\0" . "1" . "\0" . $buf);
}

sub op_write {
  my ($path, $bound, $mode, $excl, $tmp) = @_;
  my ($leaf, $at, $st) = walk($path, $bound, 0, 0);
  E("EISDIR", "is a directory") if $st && S_ISDIR($st->[2]);
  E("EEXIST", "already exists") if $st && $excl;
  $mode = ($st && S_ISREG($st->[2])) ? ($st->[2] & 07777) : "" if $mode eq "";
  my $fh;
  sysopen($fh, $tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, $mode eq "" ? 0644 : $mode) or sys("create $tmp");
  ok();
  my $err;
  while (1) {
    my $d = fin();
    if (!defined $d) { close($fh); unlink($tmp); E("ABORTED", "the write was cancelled"); }
    last if $d eq "";
    next if $err;
    my $o = 0;
    while ($o < length($d)) { my $w = syswrite($fh, $d, length($d) - $o, $o); if (!defined $w) { next if $!{EINTR}; $err = [ename(), "write: $!"]; last; } $o += $w; }
  }
  $err = [ename(), "chmod: $!"] if !$err && $mode ne "" && !chmod($mode, $fh);
  $err = [ename(), "fsync: $!"] if !$err && !$fh->sync;
  $err = [ename(), "close: $!"] if !close($fh) && !$err;
  if ($err) { unlink($tmp); E(@$err); }
  if ($excl) {
    if (!link($tmp, $leaf)) { my @e = (ename(), "link: $!"); unlink($tmp); E(@e); }
    unlink($tmp);
  } elsif (!rename($tmp, $leaf)) { my @e = (ename(), "rename: $!"); unlink($tmp); E(@e); }
  ok();
}

sub op_create {
  my ($path, $bound, $content) = @_;
  my ($leaf) = walk($path, $bound, 0, 0);
  my $fh;
  if (!sysopen($fh, $leaf, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0644)) { if ($!{EEXIST}) { ok(0); return; } sys("create"); }
  my $w = syswrite($fh, $content);
  close($fh);
  if (!defined $w || $w != length($content)) { unlink($leaf); E("EIO", "short write"); }
  ok(1);
}

sub op_lstat {
  my ($path, $bound) = @_;
  my ($leaf, $at, $st) = walk($path, $bound, 0, 0);
  if (!$st) { ok(""); return; }
  my $m = $st->[2];
  my $t = S_ISREG($m) ? "file" : S_ISDIR($m) ? "directory" : S_ISLNK($m) ? "symlink" : "other";
  ok($t, $st->[9], $st->[7], $m & 07777);
}

sub op_readdir {
  my ($path, $bound) = @_;
  for my $try (1 .. 5) {
    my @st;
    if (parts($path)) {
      my ($leaf, $at, $st) = walk($path, $bound, 1, 0);
      E("ENOENT", "no such file or directory") unless $st;
      E("ENOTDIR", "not a directory") unless S_ISDIR($st->[2]);
      chdir($leaf) or sys("chdir");
      @st = @$st;
    } else {
      chdir("/") or sys("chdir /");
      @st = stat(".");
    }
    my @here = stat(".");
    next unless @here && $here[0] == $st[0] && $here[1] == $st[1];
    my $dh;
    opendir($dh, ".") or sys("opendir");
    ok();
    my $batch = "";
    while (defined(my $n = readdir($dh))) {
      next if $n eq "." || $n eq "..";
      my @s = lstat($n);
      next unless @s;
      my $m = $s[2];
      $batch .= join("\0", $n, S_ISREG($m) ? "file" : S_ISDIR($m) ? "directory" : S_ISLNK($m) ? "symlink" : "other") . "\0";
      if (length($batch) >= 65536) { out("D" . $batch); $batch = ""; }
    }
    closedir($dh);
    out("D" . $batch) if length($batch);
    out("Z");
    return;
  }
  E("MOVED", "the directory was swapped while it was opened");
}

sub op_unlink {
  my ($path, $bound) = @_;
  my ($leaf, $at, $st) = walk($path, $bound, 0, 0);
  E("ENOENT", "no such file or directory") unless $st;
  E("EISDIR", "is a directory") if S_ISDIR($st->[2]);
  unlink($leaf) or sys("unlink");
  ok();
}

sub op_rmdir {
  my ($path, $bound) = @_;
  my ($leaf, $at, $st) = walk($path, $bound, 0, 0);
  E("ENOENT", "no such file or directory") unless $st;
  E("ENOTDIR", "not a directory") unless S_ISDIR($st->[2]);
  rmdir($leaf) or sys("rmdir");
  ok();
}

sub op_mkdir {
  my ($path, $bound, $rec, $mode) = @_;
  my ($leaf, $at, $st) = walk($path, $bound, 0, $rec);
  if ($st) { if ($rec && (S_ISDIR($st->[2]) || -d $leaf)) { ok(); return; } E("EEXIST", "already exists"); }
  if (!mkdir($leaf, $mode eq "" ? 0777 : $mode)) { if ($rec && $!{EEXIST} && -d $leaf) { ok(); return; } sys("mkdir"); }
  ok();
}

sub op_move {
  my ($how, $from, $fb, $to, $tb) = @_;
  my ($fl, $fa, $fst) = walk($from, $fb, 0, 0);
  E("ENOENT", "no such file or directory") unless $fst;
  my $dh;
  sysopen($dh, ".", O_RDONLY | O_DIRECTORY) or sys("open the directory");
  my $fd = fileno($dh);
  my ($tl) = walk($to, $tb, 0, 0);
  my $src = "/proc/self/fd/$fd/$fl";
  if ($how eq "link") { link($src, $tl) or sys("link"); } else { rename($src, $tl) or sys("rename"); }
  close($dh);
  ok();
}

my %ops = (
  read => \&op_read, small => \&op_small, write => \&op_write, create => \&op_create, lstat => \&op_lstat,
  readdir => \&op_readdir, unlink => \&op_unlink, rmdir => \&op_rmdir, mkdir => \&op_mkdir,
  rename => sub { op_move("rename", @_) }, link => sub { op_move("link", @_) },
  now => sub { ok(time()) },
);
-d "/proc/self/fd" or do { out(join("\0", "E", "EINVAL", "no /proc/self/fd")); flush(); exit 3; };
ok("agent-tools-anchored", 1);
while (1) {
  my $req = fin();
  next unless defined $req;
  my @a = split(/\0/, $req, -1);
  my $op = shift @a;
  my $f = $ops{$op};
  my $done = eval { $f ? $f->(@a) : E("EINVAL", "unknown request"); 1 };
  if (!$done) { my $e = $@; if (ref($e) eq "HASH") { out(join("\0", "E", $e->{code}, $e->{msg})); } else { out(join("\0", "E", "EIO", "$e")); } }
  chdir("/");
}
`;

/**
 * The command of the helper's exec channel: Perl by absolute path (a `perl`
 * earlier on the account's PATH is never run), Perl's own environment hooks
 * (PERL5OPT, PERL5LIB, ...) unset. Exits 127 without `/usr/bin/perl`.
 */
export function helperCommand(): string {
  if (HELPER_SCRIPT.includes("'")) throw new Error("the anchored helper's script must not contain a single quote");
  return `unset PERL5OPT PERL5LIB PERLLIB PERL5DB PERLIO PERL_UNICODE PERL_HASH_SEED_DEBUG; [ -x /usr/bin/perl ] || exit 127; exec /usr/bin/perl -e '${HELPER_SCRIPT}'`;
}
