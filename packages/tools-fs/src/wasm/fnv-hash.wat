;; FNV-1a 64 for packages/tools-fs/src/fast-io/content-hash.ts and the
;; off-thread hashing worker (fast-io/hash-worker-source.ts).
;;
;; fnv(ptr, len, h) folds the bytes [ptr, ptr + len) into the running hash h
;; (h = (h ^ byte) * 0x100000001b3, i64 arithmetic wrapping mod 2^64) and
;; returns it. It counts the LF bytes on the side (free: the loop is bound by
;; the multiply's latency) and stores the count as an i32 at address 0.
;; Callers copy their data to address 8 and grow "mem" as needed.
(module
  (memory (export "mem") 1)

  (func (export "fnv") (param $ptr i32) (param $len i32) (param $hash i64) (result i64)
    (local $newlines i32)
    ;; $len becomes the end address.
    (local.set $len (i32.add (local.get $ptr) (local.get $len)))
    (block $done
      (br_if $done (i32.ge_u (local.get $ptr) (local.get $len)))
      (loop $next
        (local.set $hash
          (i64.mul
            (i64.xor (local.get $hash) (i64.load8_u (local.get $ptr)))
            (i64.const 0x100000001b3)))
        (local.set $newlines
          (i32.add (local.get $newlines) (i32.eq (i32.load8_u (local.get $ptr)) (i32.const 10))))
        (br_if $next (i32.lt_u (local.tee $ptr (i32.add (local.get $ptr) (i32.const 1))) (local.get $len)))))
    (i32.store (i32.const 0) (local.get $newlines))
    (local.get $hash)))
