;; Grep's byte scanner for packages/tools-fs/src/search/grep-scan-kernel.ts.
;;
;; Memory layout (set by the caller): the needle's length, and the indexes
;; of the two needle bytes the vector loop tests, as i32 at 0, 4 and 8; the
;; needle at 1024 (ASCII, letters lowercase where case is ignored), its case
;; mask at 17408 (0x20 for a byte that is a letter matched in either case,
;; else 0), both at most 16,384 bytes; file bytes from 65536 (page 1). The
;; memory grows from JavaScript.
;;
;; lines(ptr, len) -> the LF bytes in [ptr, ptr + len): 16 bytes per step,
;; lane counters widened and summed every 255 vectors (before a lane
;; overflows), as in eol-count.wat.
;;
;; skip(ptr, len, count) -> the offset (from ptr) just past the count-th LF
;; in [ptr, ptr + len), or -1 when there are fewer (count >= 1): whole
;; vectors are passed by the population count of their LF lanes.
;;
;; find(ptr, len) -> the offset (from ptr) of
;; the first place in [ptr, ptr + len) where the needle occurs, or -1. A
;; byte b matches needle byte n with mask m when (b | m) == n, which for a
;; letter folds exactly its two ASCII cases. The vector loop tests 16 starts
;; at once on two bytes of the needle (the rarest ones), then checks each
;; start that passes byte by byte.
(module
  (memory (export "memory") 2)

  (func $sum (param $vector v128) (result i32)
    (local $wide v128)
    (local.set $wide (i32x4.extadd_pairwise_i16x8_u (i16x8.extadd_pairwise_i8x16_u (local.get $vector))))
    (i32.add
      (i32.add (i32x4.extract_lane 0 (local.get $wide)) (i32x4.extract_lane 1 (local.get $wide)))
      (i32.add (i32x4.extract_lane 2 (local.get $wide)) (i32x4.extract_lane 3 (local.get $wide)))))

  (func (export "lines") (param $ptr i32) (param $len i32) (result i32)
    (local $end i32)
    (local $vectorEnd i32)
    (local $blockEnd i32)
    (local $lf i32)
    (local $lanes v128)
    (local.set $end (i32.add (local.get $ptr) (local.get $len)))
    (local.set $vectorEnd (i32.sub (local.get $end) (i32.and (local.get $len) (i32.const 15))))
    (block $vectorsDone
      (loop $blocks
        (br_if $vectorsDone (i32.ge_u (local.get $ptr) (local.get $vectorEnd)))
        (local.set $blockEnd (i32.add (local.get $ptr) (i32.const 4080)))
        (if (i32.gt_u (local.get $blockEnd) (local.get $vectorEnd))
          (then (local.set $blockEnd (local.get $vectorEnd))))
        (local.set $lanes (v128.const i32x4 0 0 0 0))
        (loop $vectors
          (local.set $lanes
            (i8x16.sub (local.get $lanes) (i8x16.eq (v128.load (local.get $ptr)) (i8x16.splat (i32.const 10)))))
          (local.set $ptr (i32.add (local.get $ptr) (i32.const 16)))
          (br_if $vectors (i32.lt_u (local.get $ptr) (local.get $blockEnd))))
        (local.set $lf (i32.add (local.get $lf) (call $sum (local.get $lanes))))
        (br $blocks)))
    (block $tailDone
      (loop $tail
        (br_if $tailDone (i32.ge_u (local.get $ptr) (local.get $end)))
        (if (i32.eq (i32.load8_u (local.get $ptr)) (i32.const 10))
          (then (local.set $lf (i32.add (local.get $lf) (i32.const 1)))))
        (local.set $ptr (i32.add (local.get $ptr) (i32.const 1)))
        (br $tail)))
    (local.get $lf))

  (func (export "skip") (param $ptr i32) (param $len i32) (param $count i32) (result i32)
    (local $at i32)
    (local $end i32)
    (local $bits i32)
    (local $found i32)
    (local.set $at (local.get $ptr))
    (local.set $end (i32.add (local.get $ptr) (local.get $len)))
    (block $vectorsDone
      (loop $vectors
        (br_if $vectorsDone (i32.gt_s (i32.add (local.get $at) (i32.const 16)) (local.get $end)))
        (local.set $bits (i8x16.bitmask (i8x16.eq (v128.load (local.get $at)) (i8x16.splat (i32.const 10)))))
        (local.set $found (i32.popcnt (local.get $bits)))
        (if (i32.ge_u (local.get $found) (local.get $count))
          (then
            ;; The count-th set bit: drop the count - 1 lowest ones.
            (block $dropped
              (loop $drop
                (br_if $dropped (i32.le_u (local.get $count) (i32.const 1)))
                (local.set $bits (i32.and (local.get $bits) (i32.sub (local.get $bits) (i32.const 1))))
                (local.set $count (i32.sub (local.get $count) (i32.const 1)))
                (br $drop)))
            (return (i32.sub (i32.add (i32.add (local.get $at) (i32.ctz (local.get $bits))) (i32.const 1)) (local.get $ptr)))))
        (local.set $count (i32.sub (local.get $count) (local.get $found)))
        (local.set $at (i32.add (local.get $at) (i32.const 16)))
        (br $vectors)))
    (block $tailDone
      (loop $tail
        (br_if $tailDone (i32.ge_u (local.get $at) (local.get $end)))
        (if (i32.eq (i32.load8_u (local.get $at)) (i32.const 10))
          (then
            (local.set $count (i32.sub (local.get $count) (i32.const 1)))
            (if (i32.eqz (local.get $count))
              (then (return (i32.sub (i32.add (local.get $at) (i32.const 1)) (local.get $ptr)))))))
        (local.set $at (i32.add (local.get $at) (i32.const 1)))
        (br $tail)))
    (i32.const -1))

  ;; Whether the needle occurs at $at (every byte, through the mask).
  (func $matches (param $at i32) (param $needleLength i32) (result i32)
    (local $index i32)
    (block $mismatch
      (loop $bytes
        (if (i32.ge_u (local.get $index) (local.get $needleLength))
          (then (return (i32.const 1))))
        (br_if $mismatch
          (i32.ne
            (i32.or
              (i32.load8_u (i32.add (local.get $at) (local.get $index)))
              (i32.load8_u (i32.add (i32.const 17408) (local.get $index))))
            (i32.load8_u (i32.add (i32.const 1024) (local.get $index)))))
        (local.set $index (i32.add (local.get $index) (i32.const 1)))
        (br $bytes)))
    (i32.const 0))

  (func (export "find") (param $ptr i32) (param $len i32) (result i32)
    (local $needleLength i32)
    (local $first i32)
    (local $second i32)
    (local $start i32)
    (local $last i32)
    (local $firstByte v128)
    (local $firstMask v128)
    (local $secondByte v128)
    (local $secondMask v128)
    (local $bits i32)
    (local $candidate i32)
    (local.set $needleLength (i32.load (i32.const 0)))
    (local.set $first (i32.load (i32.const 4)))
    (local.set $second (i32.load (i32.const 8)))
    (if (i32.gt_s (local.get $needleLength) (local.get $len))
      (then (return (i32.const -1))))
    ;; $last: the last start, absolute.
    (local.set $start (local.get $ptr))
    (local.set $last (i32.add (local.get $ptr) (i32.sub (local.get $len) (local.get $needleLength))))
    (local.set $firstByte (i8x16.splat (i32.load8_u (i32.add (i32.const 1024) (local.get $first)))))
    (local.set $firstMask (i8x16.splat (i32.load8_u (i32.add (i32.const 17408) (local.get $first)))))
    (local.set $secondByte (i8x16.splat (i32.load8_u (i32.add (i32.const 1024) (local.get $second)))))
    (local.set $secondMask (i8x16.splat (i32.load8_u (i32.add (i32.const 17408) (local.get $second)))))
    ;; 16 starts at a time while all 16 fit before $last.
    (block $vectorsDone
      (loop $vectors
        (br_if $vectorsDone (i32.gt_s (i32.add (local.get $start) (i32.const 15)) (local.get $last)))
        (local.set $bits
          (i8x16.bitmask
            (v128.and
              (i8x16.eq
                (v128.or (v128.load (i32.add (local.get $start) (local.get $first))) (local.get $firstMask))
                (local.get $firstByte))
              (i8x16.eq
                (v128.or (v128.load (i32.add (local.get $start) (local.get $second))) (local.get $secondMask))
                (local.get $secondByte)))))
        (block $bitsDone
          (loop $candidates
            (br_if $bitsDone (i32.eqz (local.get $bits)))
            (local.set $candidate (i32.add (local.get $start) (i32.ctz (local.get $bits))))
            (if (call $matches (local.get $candidate) (local.get $needleLength))
              (then (return (i32.sub (local.get $candidate) (local.get $ptr)))))
            (local.set $bits (i32.and (local.get $bits) (i32.sub (local.get $bits) (i32.const 1))))
            (br $candidates)))
        (local.set $start (i32.add (local.get $start) (i32.const 16)))
        (br $vectors)))
    (block $tailDone
      (loop $tail
        (br_if $tailDone (i32.gt_s (local.get $start) (local.get $last)))
        (if (call $matches (local.get $start) (local.get $needleLength))
          (then (return (i32.sub (local.get $start) (local.get $ptr)))))
        (local.set $start (i32.add (local.get $start) (i32.const 1)))
        (br $tail)))
    (i32.const -1)))
