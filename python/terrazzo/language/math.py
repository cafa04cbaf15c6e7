"""`tl.math`: elementwise math functions.

Transcendental functions on float16/bfloat16 are computed in float32 and
rounded back; integers are rejected.
"""

from .core import (_current_semantic, _math1, abs, builtin, cdiv, ceil, cos, div_rn,  # noqa: F401
                   erf, exp, exp2, fdiv, floor, fma, log, log2, maximum, minimum,
                   rsqrt, sigmoid, sin, sqrt, sqrt_rn)

tanh = _math1("tanh", "Elementwise hyperbolic tangent.")
log1p = _math1("log1p", "Elementwise log(1 + x).")
expm1 = _math1("expm1", "Elementwise exp(x) - 1.")
log10 = _math1("log10", "Elementwise base-10 logarithm.")
tan = _math1("tan", "Elementwise tangent.")
trunc = _math1("trunc", "Elementwise truncation toward zero.")
round = _math1("round", "Elementwise rounding half away from zero.")


@builtin
def umulhi(x, y):
    """Elementwise high half of the 2N-bit product of two N-bit integers (32
    or 64 bits, both read as unsigned), of their common type."""
    return _current_semantic().umulhi(x, y)


@builtin
def pow(x, y):
    """Elementwise x ** y (floats)."""
    return _current_semantic().pow(x, y)


__all__ = ["abs", "cdiv", "ceil", "cos", "div_rn", "erf", "exp", "exp2", "fdiv",
           "floor", "fma", "log", "log2", "maximum", "minimum", "rsqrt", "sigmoid",
           "sin", "sqrt", "sqrt_rn", "umulhi", "tanh", "log1p", "expm1", "log10",
           "tan", "trunc", "round", "pow"]
