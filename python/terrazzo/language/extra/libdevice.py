"""`tl.extra.libdevice`: NVIDIA's libdevice functions, as in Triton's
`triton.language.extra.libdevice`.

Each function is elementwise over its arguments (tensors or Python
numbers, broadcast to one shape) and calls the libdevice function (`__nv_*`)
that `SIGNATURES` gives for its arguments' types: `libdevice.asin` on
float32 calls `__nv_asinf`, on float64 `__nv_asin`. Arguments of other
types are first converted to the type arithmetic on them would use, as in
Triton; where that has no entry either (float16 and bfloat16, mostly), the
call is an error. The compiled kernel links libdevice (found through
`TERRAZZO_LIBDEVICE`, `CUDA_HOME` or `/usr/local/cuda`); the interpreter
runs the NumPy implementations of `libdevice_reference`.

`fast_tanhf`, which libdevice lacks, is a float32 tanh marked approximate
(`math.tanh` with `afn`): NVIDIA's `tanh.approx.f32`, ocml's tanh on AMD.
"""

from __future__ import annotations

import inspect
from typing import Dict, List, Tuple

from ...errors import SemanticError
from .. import core
from ..core import _current_semantic, builtin
from . import libdevice_reference

_TYPES = {"i32": core.int32, "u32": core.uint32, "i64": core.int64, "u64": core.uint64,
          "f32": core.float32, "f64": core.float64}

# One line per function: its name, then its signatures separated by ";",
# each "argument types>result type symbol". Two shorthands: "F<n> base" is
# the float32 function `__nv_<base>f` and the float64 `__nv_<base>` of n
# arguments; "R<n> f d" names the float32 and float64 symbols of such a pair.
_SPEC = """
clz             i32>i32 __nv_clz; i64>i32 __nv_clzll
popc            i32>i32 __nv_popc; i64>i32 __nv_popcll
byte_perm       i32,i32,i32>i32 __nv_byte_perm
mulhi           i32,i32>i32 __nv_mulhi; u32,u32>u32 __nv_umulhi; i64,i64>i64 __nv_mul64hi; u64,u64>u64 __nv_umul64hi
mul24           i32,i32>i32 __nv_mul24; u32,u32>u32 __nv_umul24
brev            i32>i32 __nv_brev; i64>i64 __nv_brevll
sad             i32,i32,u32>i32 __nv_sad; u32,u32,u32>u32 __nv_usad
abs             i32>i32 __nv_abs; i64>i64 __nv_llabs; f32>f32 __nv_fabsf; f64>f64 __nv_fabs
floor           F1 floor
rcp64h          f64>f64 __nv_rcp64h
rsqrt           F1 rsqrt
ceil            F1 ceil
trunc           F1 trunc
exp2            F1 exp2
saturatef       f32>f32 __nv_saturatef
fma_rn          R3 __nv_fmaf_rn __nv_fma_rn
fma_rz          R3 __nv_fmaf_rz __nv_fma_rz
fma_rd          R3 __nv_fmaf_rd __nv_fma_rd
fma_ru          R3 __nv_fmaf_ru __nv_fma_ru
fast_dividef    f32,f32>f32 __nv_fast_fdividef
div_rn          R2 __nv_fdiv_rn __nv_ddiv_rn
div_rz          R2 __nv_fdiv_rz __nv_ddiv_rz
div_rd          R2 __nv_fdiv_rd __nv_ddiv_rd
div_ru          R2 __nv_fdiv_ru __nv_ddiv_ru
rcp_rn          R1 __nv_frcp_rn __nv_drcp_rn
rcp_rz          R1 __nv_frcp_rz __nv_drcp_rz
rcp_rd          R1 __nv_frcp_rd __nv_drcp_rd
rcp_ru          R1 __nv_frcp_ru __nv_drcp_ru
sqrt_rn         R1 __nv_fsqrt_rn __nv_dsqrt_rn
sqrt_rz         R1 __nv_fsqrt_rz __nv_dsqrt_rz
sqrt_rd         R1 __nv_fsqrt_rd __nv_dsqrt_rd
sqrt_ru         R1 __nv_fsqrt_ru __nv_dsqrt_ru
sqrt            F1 sqrt
add_rn          R2 __nv_fadd_rn __nv_dadd_rn
add_rz          R2 __nv_fadd_rz __nv_dadd_rz
add_rd          R2 __nv_fadd_rd __nv_dadd_rd
add_ru          R2 __nv_fadd_ru __nv_dadd_ru
mul_rn          R2 __nv_fmul_rn __nv_dmul_rn
mul_rz          R2 __nv_fmul_rz __nv_dmul_rz
mul_rd          R2 __nv_fmul_rd __nv_dmul_rd
mul_ru          R2 __nv_fmul_ru __nv_dmul_ru
double2float_rn f64>f32 __nv_double2float_rn
double2float_rz f64>f32 __nv_double2float_rz
double2float_rd f64>f32 __nv_double2float_rd
double2float_ru f64>f32 __nv_double2float_ru
double2int_rn   f64>i32 __nv_double2int_rn
double2int_rz   f64>i32 __nv_double2int_rz
double2int_rd   f64>i32 __nv_double2int_rd
double2int_ru   f64>i32 __nv_double2int_ru
double2uint_rn  f64>i32 __nv_double2uint_rn
double2uint_rz  f64>i32 __nv_double2uint_rz
double2uint_rd  f64>i32 __nv_double2uint_rd
double2uint_ru  f64>i32 __nv_double2uint_ru
int2double_rn   i32>f64 __nv_int2double_rn
uint2double_rn  u32>f64 __nv_uint2double_rn
float2int_rn    f32>i32 __nv_float2int_rn
float2int_rz    f32>i32 __nv_float2int_rz
float2int_rd    f32>i32 __nv_float2int_rd
float2int_ru    f32>i32 __nv_float2int_ru
float2uint_rn   f32>i32 __nv_float2uint_rn
float2uint_rz   f32>i32 __nv_float2uint_rz
float2uint_rd   f32>i32 __nv_float2uint_rd
float2uint_ru   f32>i32 __nv_float2uint_ru
int2float_rn    i32>f32 __nv_int2float_rn
int2float_rz    i32>f32 __nv_int2float_rz
int2float_rd    i32>f32 __nv_int2float_rd
int2float_ru    i32>f32 __nv_int2float_ru
uint2float_rn   u32>f32 __nv_uint2float_rn
uint2float_rz   u32>f32 __nv_uint2float_rz
uint2float_rd   u32>f32 __nv_uint2float_rd
uint2float_ru   u32>f32 __nv_uint2float_ru
hiloint2double  i32,i32>f64 __nv_hiloint2double
double2loint    f64>i32 __nv_double2loint
double2hiint    f64>i32 __nv_double2hiint
float2ll_rn     f32>i64 __nv_float2ll_rn
float2ll_rz     f32>i64 __nv_float2ll_rz
float2ll_rd     f32>i64 __nv_float2ll_rd
float2ll_ru     f32>i64 __nv_float2ll_ru
float2ull_rn    f32>i64 __nv_float2ull_rn
float2ull_rz    f32>i64 __nv_float2ull_rz
float2ull_rd    f32>i64 __nv_float2ull_rd
float2ull_ru    f32>i64 __nv_float2ull_ru
double2ll_rn    f64>i64 __nv_double2ll_rn
double2ll_rz    f64>i64 __nv_double2ll_rz
double2ll_rd    f64>i64 __nv_double2ll_rd
double2ll_ru    f64>i64 __nv_double2ll_ru
double2ull_rn   f64>i64 __nv_double2ull_rn
double2ull_rz   f64>i64 __nv_double2ull_rz
double2ull_rd   f64>i64 __nv_double2ull_rd
double2ull_ru   f64>i64 __nv_double2ull_ru
ll2float_rn     i64>f32 __nv_ll2float_rn
ll2float_rz     i64>f32 __nv_ll2float_rz
ll2float_rd     i64>f32 __nv_ll2float_rd
ll2float_ru     i64>f32 __nv_ll2float_ru
ull2float_rn    u64>f32 __nv_ull2float_rn
ull2float_rz    u64>f32 __nv_ull2float_rz
ull2float_rd    u64>f32 __nv_ull2float_rd
ull2float_ru    u64>f32 __nv_ull2float_ru
ll2double_rn    i64>f64 __nv_ll2double_rn
ll2double_rz    i64>f64 __nv_ll2double_rz
ll2double_rd    i64>f64 __nv_ll2double_rd
ll2double_ru    i64>f64 __nv_ll2double_ru
ull2double_rn   u64>f64 __nv_ull2double_rn
ull2double_rz   u64>f64 __nv_ull2double_rz
ull2double_rd   u64>f64 __nv_ull2double_rd
ull2double_ru   u64>f64 __nv_ull2double_ru
int_as_float    i32>f32 __nv_int_as_float
float_as_int    f32>i32 __nv_float_as_int
uint_as_float   u32>f32 __nv_uint_as_float
float_as_uint   f32>i32 __nv_float_as_uint
longlong_as_double  i64>f64 __nv_longlong_as_double
double_as_longlong  f64>i64 __nv_double_as_longlong
fast_sinf       f32>f32 __nv_fast_sinf
fast_cosf       f32>f32 __nv_fast_cosf
fast_log2f      f32>f32 __nv_fast_log2f
fast_logf       f32>f32 __nv_fast_logf
fast_expf       f32>f32 __nv_fast_expf
fast_tanf       f32>f32 __nv_fast_tanf
fast_exp10f     f32>f32 __nv_fast_exp10f
fast_log10f     f32>f32 __nv_fast_log10f
fast_powf       f32,f32>f32 __nv_fast_powf
hadd            i32,i32>i32 __nv_hadd; u32,u32>u32 __nv_uhadd
rhadd           i32,i32>i32 __nv_rhadd; u32,u32>u32 __nv_urhadd
sub_rn          R2 __nv_fsub_rn __nv_dsub_rn
sub_rz          R2 __nv_fsub_rz __nv_dsub_rz
sub_rd          R2 __nv_fsub_rd __nv_dsub_rd
sub_ru          R2 __nv_fsub_ru __nv_dsub_ru
rsqrt_rn        f32>f32 __nv_frsqrt_rn
ffs             i32>i32 __nv_ffs; i64>i32 __nv_ffsll
rint            F1 rint
llrint          f32>i64 __nv_llrintf; f64>i64 __nv_llrint
nearbyint       F1 nearbyint
isnan           f32>i32 __nv_isnanf; f64>i32 __nv_isnand
signbit         f32>i32 __nv_signbitf; f64>i32 __nv_signbitd
copysign        F2 copysign
finitef         f32>i32 __nv_finitef
isinf           f32>i32 __nv_isinff; f64>i32 __nv_isinfd
nextafter       F2 nextafter
sin             F1 sin
cos             F1 cos
sinpi           F1 sinpi
cospi           F1 cospi
tan             F1 tan
log2            F1 log2
exp             F1 exp
exp10           F1 exp10
cosh            F1 cosh
sinh            F1 sinh
tanh            F1 tanh
atan2           F2 atan2
atan            F1 atan
asin            F1 asin
acos            F1 acos
log             F1 log
log10           F1 log10
log1p           F1 log1p
acosh           F1 acosh
asinh           F1 asinh
atanh           F1 atanh
expm1           F1 expm1
hypot           F2 hypot
rhypot          F2 rhypot
norm3d          F3 norm3d
rnorm3d         F3 rnorm3d
norm4d          F4 norm4d
rnorm4d         F4 rnorm4d
cbrt            F1 cbrt
rcbrt           F1 rcbrt
j0              F1 j0
j1              F1 j1
y0              F1 y0
y1              F1 y1
yn              i32,f32>f32 __nv_ynf; i32,f64>f64 __nv_yn
jn              i32,f32>f32 __nv_jnf; i32,f64>f64 __nv_jn
cyl_bessel_i0   F1 cyl_bessel_i0
cyl_bessel_i1   F1 cyl_bessel_i1
erf             F1 erf
erfinv          F1 erfinv
erfc            F1 erfc
erfcx           F1 erfcx
erfcinv         F1 erfcinv
normcdfinv      F1 normcdfinv
normcdf         F1 normcdf
lgamma          F1 lgamma
ldexp           f32,i32>f32 __nv_ldexpf; f64,i32>f64 __nv_ldexp
scalbn          f32,i32>f32 __nv_scalbnf; f64,i32>f64 __nv_scalbn
fmod            F2 fmod
remainder       F2 remainder
fma             F3 fma
pow             f32,i32>f32 __nv_powif; f64,i32>f64 __nv_powi; f32,f32>f32 __nv_powf; f64,f64>f64 __nv_pow
tgamma          F1 tgamma
round           F1 round
llround         f32>i64 __nv_llroundf; f64>i64 __nv_llround
fdim            F2 fdim
ilogb           f32>i32 __nv_ilogbf; f64>i32 __nv_ilogb
logb            F1 logb
isfinited       f64>i32 __nv_isfinited
"""

#: Functions whose int32 answer Triton returns as int1.
_BOOLEAN = ("isnan", "isinf")

Signature = Dict[Tuple[core.dtype, ...], Tuple[str, core.dtype]]


def _parse(spec: str) -> Dict[str, Signature]:
    table: Dict[str, Signature] = {}
    for line in spec.strip().splitlines():
        name, rest = line.split(None, 1)
        entries: Signature = {}
        for part in rest.split(";"):
            words = part.split()
            if words[0][0] in "FR":
                n = int(words[0][1:])
                f_symbol, d_symbol = ((f"__nv_{words[1]}f", f"__nv_{words[1]}")
                                      if words[0][0] == "F" else (words[1], words[2]))
                entries[(core.float32,) * n] = (f_symbol, core.float32)
                entries[(core.float64,) * n] = (d_symbol, core.float64)
                continue
            types, symbol = words
            args, result = types.split(">")
            entries[tuple(_TYPES[a] for a in args.split(","))] = (symbol, _TYPES[result])
        table[name] = entries
    return table


#: Each function's signatures: {(argument dtypes): (libdevice symbol, result dtype)}.
SIGNATURES: Dict[str, Signature] = _parse(_SPEC)


def _make(name: str, signatures: Signature):
    arity = len(next(iter(signatures)))
    reference = libdevice_reference.IMPLS[name]
    accepted = ", ".join("(" + ", ".join(str(t) for t in k) + ")" for k in signatures)

    signature = inspect.Signature(
        [inspect.Parameter(f"arg{i}", inspect.Parameter.POSITIONAL_OR_KEYWORD)
         for i in range(arity)])

    @builtin
    def fn(*args, **kwargs):
        args = list(signature.bind(*args, **kwargs).arguments.values())
        sem = _current_semantic()
        r = sem.extern_elementwise("", "", args, signatures, True, reference,
                                   name=f"libdevice.{name}")
        return sem.cast(r, core.int1) if name in _BOOLEAN else r

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = (f"libdevice's {name}, elementwise; argument types: {accepted} "
                  f"(symbols {', '.join(s for s, _ in signatures.values())}).")
    fn.__signature__ = signature
    return fn


for _name, _signatures in SIGNATURES.items():
    globals()[_name] = _make(_name, _signatures)

@builtin
def fast_tanhf(arg0):
    """tanh of float32 values by the hardware's approximation: NVIDIA's
    `tanh.approx.f32` (sm_75 and later, about 2^-11 relative error;
    libdevice's tanhf before), ocml's `__ocml_tanh_f32` on AMD (within
    about 2^-22 relative)."""
    sem = _current_semantic()
    x = sem.to_tensor(arg0)
    if x.type.scalar != core.float32:
        raise SemanticError(f"libdevice.fast_tanhf takes float32 values, got "
                                 f"{x.type.scalar}")
    return sem.math_unary("fast_tanh", x)


__all__: List[str] = sorted(list(SIGNATURES) + ["fast_tanhf"])
