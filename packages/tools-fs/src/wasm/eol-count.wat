;; Line-ending counter for packages/tools-fs/src/shared/line-ending-count.ts.
;;
;; count(ptr, len) counts the LF bytes in [ptr, ptr + len) and how many of
;; them follow a CR (the byte at ptr - 1 counts as the one before the first
;; byte, so the caller keeps the previous chunk's last byte there). It stores
;; the LF count as an i32 at address 0 and the CRLF count at address 4.
;;
;; The vector loop compares 16 bytes at p (with 10) and 16 bytes at p - 1
;; (with 13) and subtracts the all-ones lanes from byte accumulators, which
;; are widened and summed every 255 vectors (before a lane can overflow).
(module
  (memory (export "memory") 3)

  (func $sum (param $vector v128) (result i32)
    (local $wide v128)
    (local.set $wide (i32x4.extadd_pairwise_i16x8_u (i16x8.extadd_pairwise_i8x16_u (local.get $vector))))
    (i32.add
      (i32.add (i32x4.extract_lane 0 (local.get $wide)) (i32x4.extract_lane 1 (local.get $wide)))
      (i32.add (i32x4.extract_lane 2 (local.get $wide)) (i32x4.extract_lane 3 (local.get $wide)))))

  (func (export "count") (param $ptr i32) (param $len i32)
    (local $end i32)
    (local $vectorEnd i32)
    (local $blockEnd i32)
    (local $lf i32)
    (local $crlf i32)
    (local $lfLanes v128)
    (local $crlfLanes v128)
    (local $isLf v128)
    (local.set $end (i32.add (local.get $ptr) (local.get $len)))
    (local.set $vectorEnd (i32.sub (local.get $end) (i32.and (local.get $len) (i32.const 15))))
    (block $vectorsDone
      (loop $blocks
        (br_if $vectorsDone (i32.ge_u (local.get $ptr) (local.get $vectorEnd)))
        (local.set $blockEnd (i32.add (local.get $ptr) (i32.const 4080)))
        (if (i32.gt_u (local.get $blockEnd) (local.get $vectorEnd))
          (then (local.set $blockEnd (local.get $vectorEnd))))
        (local.set $lfLanes (v128.const i32x4 0 0 0 0))
        (local.set $crlfLanes (v128.const i32x4 0 0 0 0))
        (loop $vectors
          (local.set $isLf (i8x16.eq (v128.load (local.get $ptr)) (i8x16.splat (i32.const 10))))
          (local.set $lfLanes (i8x16.sub (local.get $lfLanes) (local.get $isLf)))
          (local.set $crlfLanes
            (i8x16.sub (local.get $crlfLanes)
              (v128.and (local.get $isLf)
                (i8x16.eq (v128.load (i32.sub (local.get $ptr) (i32.const 1))) (i8x16.splat (i32.const 13))))))
          (local.set $ptr (i32.add (local.get $ptr) (i32.const 16)))
          (br_if $vectors (i32.lt_u (local.get $ptr) (local.get $blockEnd))))
        (local.set $lf (i32.add (local.get $lf) (call $sum (local.get $lfLanes))))
        (local.set $crlf (i32.add (local.get $crlf) (call $sum (local.get $crlfLanes))))
        (br $blocks)))
    (block $tailDone
      (loop $tail
        (br_if $tailDone (i32.ge_u (local.get $ptr) (local.get $end)))
        (if (i32.eq (i32.load8_u (local.get $ptr)) (i32.const 10))
          (then
            (local.set $lf (i32.add (local.get $lf) (i32.const 1)))
            (if (i32.eq (i32.load8_u (i32.sub (local.get $ptr) (i32.const 1))) (i32.const 13))
              (then (local.set $crlf (i32.add (local.get $crlf) (i32.const 1)))))))
        (local.set $ptr (i32.add (local.get $ptr) (i32.const 1)))
        (br $tail)))
    (i32.store (i32.const 0) (local.get $lf))
    (i32.store (i32.const 4) (local.get $crlf))))
