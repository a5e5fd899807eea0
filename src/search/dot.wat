;; Dot products of one query with many vectors, four floats at a time (WASM SIMD).
;; dots(data, query, rows, dims, out): out[r] = Σ_i data[r·dims + i] · query[i], for r < rows.
;; All arguments are byte offsets into the module's memory except rows and dims; dims must be
;; a multiple of 8 (384 for bge-micro-v2). Built into dot-wasm.ts by scripts/build-wasm.mjs.
(module
  (memory (export "memory") 1)
  (func (export "dots") (param $data i32) (param $query i32) (param $rows i32) (param $dims i32) (param $out i32)
    (local $r i32) (local $i i32) (local $row i32) (local $bytes i32) (local $a v128) (local $b v128)
    (local.set $bytes (i32.shl (local.get $dims) (i32.const 2)))
    (local.set $row (local.get $data))
    (block $rows_done
      (loop $each_row
        (br_if $rows_done (i32.ge_u (local.get $r) (local.get $rows)))
        (local.set $a (v128.const f32x4 0 0 0 0))
        (local.set $b (v128.const f32x4 0 0 0 0))
        (local.set $i (i32.const 0))
        (block $dims_done
          (loop $each_pair
            (br_if $dims_done (i32.ge_u (local.get $i) (local.get $bytes)))
            (local.set $a (f32x4.add (local.get $a)
              (f32x4.mul (v128.load (i32.add (local.get $row) (local.get $i)))
                         (v128.load (i32.add (local.get $query) (local.get $i))))))
            (local.set $b (f32x4.add (local.get $b)
              (f32x4.mul (v128.load offset=16 (i32.add (local.get $row) (local.get $i)))
                         (v128.load offset=16 (i32.add (local.get $query) (local.get $i))))))
            (local.set $i (i32.add (local.get $i) (i32.const 32)))
            (br $each_pair)))
        (local.set $a (f32x4.add (local.get $a) (local.get $b)))
        (f32.store (i32.add (local.get $out) (i32.shl (local.get $r) (i32.const 2)))
          (f32.add
            (f32.add (f32x4.extract_lane 0 (local.get $a)) (f32x4.extract_lane 1 (local.get $a)))
            (f32.add (f32x4.extract_lane 2 (local.get $a)) (f32x4.extract_lane 3 (local.get $a)))))
        (local.set $row (i32.add (local.get $row) (local.get $bytes)))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $each_row)))))
