#!/usr/bin/python3
"""A generator of random, well-typed Relay programs (Relay text).

Each program is a function of tensor parameters built, type-directed, from
Relay's language: operators (elementwise with broadcasting, reductions,
transposes, reshapes, concatenation, where, casts), constants, let
bindings, tuples and projections, `if` on integer conditions, closures
(capturing, applied, passed to the prelude's map and foldl), local and
global recursion that terminates (a counter that decreases), ADT values
(the prelude's List, built and matched) and references (written and read).
Values stay small and away from the places where float32 and the
interpreter's doubles could round differently (no float-to-int casts, no
float comparisons deciding control flow, no division), so that the
interpreter and compiled code must agree to rounding.

    relay_program_generator.py SEED [--programs N]   # prints a module

`generate_module(seed, programs)` returns (text, parameter types): @main
takes the parameters and returns a tuple with each program's result.
"""

import argparse
import random
import sys

FLOAT, INT, BOOL = "float32", "int32", "bool"


class TensorType:
    def __init__(self, shape, dtype):
        self.shape = tuple(shape)
        self.dtype = dtype

    def __eq__(self, other):
        return (isinstance(other, TensorType) and self.shape == other.shape
                and self.dtype == other.dtype)

    def __hash__(self):
        return hash((self.shape, self.dtype))

    @property
    def rank(self):
        return len(self.shape)

    def numel(self):
        n = 1
        for d in self.shape:
            n *= d
        return n

    def text(self):
        if not self.shape:
            return self.dtype
        dims = ", ".join(str(d) for d in self.shape)
        if len(self.shape) == 1:
            dims += ","
        return "Tensor[(%s), %s]" % (dims, self.dtype)


class TupleType:
    """A tuple of tensors and tuples (parameters and results: what a
    gradient takes apart and puts together field by field)."""

    def __init__(self, fields):
        self.fields = list(fields)

    def __eq__(self, other):
        return isinstance(other, TupleType) and self.fields == other.fields

    def __hash__(self):
        return hash(tuple(self.fields))

    def text(self):
        texts = [f.text() for f in self.fields]
        return "(%s%s)" % (", ".join(texts), "," if len(texts) == 1 else "")

    def leaves(self, name):
        """(projection, TensorType) of each tensor in it, depth first:
        `%x.1.0` for the first field of the second."""
        for i, field in enumerate(self.fields):
            path = "%s.%d" % (name, i)
            if isinstance(field, TupleType):
                yield from field.leaves(path)
            else:
                yield path, field


class FnType:
    def __init__(self, params, result):
        self.params = list(params)
        self.result = result


class RefType:
    def __init__(self, element):
        self.element = element


def shape_list(shape):
    return "[" + ", ".join(str(d) for d in shape) + "]"


class Generator:
    """Generates one module; `self.globals` collects helper functions."""

    def __init__(self, seed, nn=False, gradient=False):
        self.rng = random.Random(seed)
        # Programs to differentiate: mostly float32, the parameters used
        # often (a gradient is only as good as the paths from them), smooth
        # functions, the operators whose rules the others do not reach.
        self.gradient = gradient
        # How often (against the other makers) an expression starts from a
        # variable in scope.
        self.variables = 9 if gradient else 3
        self.counter = 0
        self.globals = []
        # Also the operators with kernels of their own (products,
        # convolutions, pools, slices, gathers, pads ...), whose tiled and
        # vectorised code meets random small shapes here.
        self.nn = nn

    def fresh(self, prefix):
        self.counter += 1
        return "%s%d" % (prefix, self.counter)

    # Types and constants ----------------------------------------------------

    def tensor_type(self, dtype=None, max_rank=3):
        rng = self.rng
        if dtype is None:
            # (Mostly float32 where a gradient is asked for: integers have
            # none.)
            dtype = FLOAT if rng.random() < (
                0.9 if self.gradient else 0.7) else INT
        rank = rng.randint(0, max_rank)
        # With --nn, now and then a size past a vector's or a tile's edge.
        return TensorType([rng.randint(1, 19 if self.nn and rng.random() < 0.2
                                       else 4) for _ in range(rank)], dtype)

    def tuple_type(self, depth=2, dtype=None):
        """A tuple of one to three fields, tensors or (to `depth`) tuples;
        with `dtype`, its first tensor has that dtype."""
        fields = []
        for i in range(self.rng.randint(1, 3)):
            first = dtype if i == 0 else None
            if depth > 1 and self.rng.random() < 0.3:
                fields.append(self.tuple_type(depth - 1, first))
            else:
                fields.append(self.tensor_type(first))
        return TupleType(fields)

    def literal(self, dtype):
        if dtype == FLOAT:
            return "%.3ff" % self.rng.uniform(-2, 2)
        return str(self.rng.randint(-4, 4))

    def constant(self, ty):
        rng = self.rng
        if ty.rank == 0:
            return self.literal(ty.dtype)
        if rng.random() < 0.3:
            return 'full(%s, shape=%s, dtype="%s")' % (
                self.literal(ty.dtype), shape_list(ty.shape), ty.dtype)
        # Distinct values: a transposed or sliced constant shows its order.
        n = ty.numel()
        if ty.dtype == FLOAT:
            start = "%.2ff" % rng.uniform(-1, 0)
            step = "%.3ff" % rng.uniform(0.05, 0.5)
        else:
            start, step = str(rng.randint(-3, 0)), "1"
        return ('reshape(add(cumsum(full(%s, shape=[%d], dtype="%s")), %s), '
                'newshape=%s)') % (step, n, ty.dtype, start,
                                   shape_list(ty.shape))

    # Expressions ------------------------------------------------------------

    def expr(self, ty, depth, env):
        """An expression of TensorType `ty`; `env` lists (name, type) in
        scope."""
        rng = self.rng
        same = [name for name, t in env if t == ty]
        if depth <= 0 or rng.random() < 0.15:
            if same and rng.random() < 0.7:
                return rng.choice(same)
            if self.gradient and rng.random() < 0.6:
                made = self.from_variable(ty, depth, env)
                if made is not None:
                    return made
            return self.constant(ty)
        makers = [self.unary, self.binary, self.binary, self.reduce,
                  self.transpose, self.reshape, self.concat, self.where,
                  self.if_expr, self.projection, self.apply_closure,
                  self.cast, self.fold_list, self.match_list, self.map_list,
                  self.global_loop, self.local_loop, self.let_block]
        if self.nn:
            makers += [self.dense, self.batch_matmul, self.conv2d,
                       self.conv2d, self.pool2d, self.softmax,
                       self.strided_slice, self.take, self.expand_dims,
                       self.squeeze, self.broadcast_to, self.tile,
                       self.reverse, self.bias_add, self.cumsum, self.pad,
                       self.conv2d_transpose, self.global_pool, self.gather,
                       self.one_hot, self.gather_nd, self.adv_index]
            if self.gradient:
                # Gradients: the normalisations, per-channel and resampling
                # operators (their rules or their decompositions').
                makers += [self.normalization, self.prelu, self.resample,
                           self.adaptive_pool, self.stack_or_repeat,
                           self.variance]
        if same:
            makers += [lambda t, d, e: rng.choice(same)] * 2
        makers += [self.from_variable] * self.variables
        for _ in range(10):
            made = rng.choice(makers)(ty, depth, env)
            if made is not None:
                return made
        return self.constant(ty)

    def from_variable(self, ty, depth, env):
        """A tensor in scope brought to `ty`: reshaped where it has as many
        elements, else reduced to a scalar that a constant broadcasts."""
        tensors = [(n, t) for n, t in env if isinstance(t, TensorType)
                   and (t.dtype == ty.dtype or
                        (t.dtype == INT and ty.dtype == FLOAT))]
        if not tensors:
            return None
        name, t = self.rng.choice(tensors)
        if t.dtype != ty.dtype:
            name = 'cast(%s, dtype="%s")' % (name, ty.dtype)
        if t.numel() == ty.numel() and self.rng.random() < 0.6:
            return "reshape(%s, newshape=%s)" % (name, shape_list(ty.shape))
        op = self.rng.choice(["add", "multiply", "subtract"])
        reductions = (["sum", "sum", "max"] if self.gradient else
                      ["sum", "max", "min"])
        return "%s(%s, %s(%s))" % (op, self.constant(ty),
                                   self.rng.choice(reductions), name)

    def unary(self, ty, depth, env):
        x = self.expr(ty, depth - 1, env)
        if ty.dtype == FLOAT:
            ops = ["negative", "abs", "tanh", "sigmoid", "nn.relu", "clip"]
            if self.gradient:
                # For gradients (where the interpreter is compared with
                # itself, not with compiled code, to rounding): smooth
                # functions whose rules the others do not reach, on
                # arguments kept in their domains.
                ops += ["sin", "cos", "erf", "exp", "log", "sqrt", "divide",
                        "leaky_relu", "power", "softmax"]
            op = self.rng.choice(ops)
            if op == "clip":
                return "clip(%s, a_min=-1.5, a_max=1.5)" % x
            if op == "exp":
                return "exp(clip(%s, a_min=-3f, a_max=3f))" % x
            if op in ("log", "sqrt"):
                return "%s(add(abs(%s), 0.5f))" % (op, x)
            if op == "divide":
                v = self.fresh("%d")
                return "{\n  let %s = %s;\n  divide(%s, add(multiply(%s, %s), " \
                    "1f))\n}" % (v, x, v, v, v)
            if op == "power":
                return "power(add(abs(%s), 0.5f), 1.5f)" % x
            if op == "leaky_relu":
                return "nn.leaky_relu(%s, alpha=0.2f)" % x
            if op == "softmax":
                if ty.rank == 0:
                    return "sigmoid(%s)" % x
                return "nn.%s(%s, axis=%d)" % (
                    self.rng.choice(["softmax", "log_softmax"]), x,
                    self.rng.randrange(ty.rank))
            return "%s(%s)" % (op, x)
        return "%s(%s)" % (self.rng.choice(["negative", "abs"]), x)

    def broadcast_partner(self, ty):
        """A type that broadcasts with `ty` into `ty`."""
        rng = self.rng
        choice = rng.random()
        if choice < 0.5 or ty.rank == 0:
            return ty
        if choice < 0.75:
            return TensorType((), ty.dtype)
        keep = rng.randint(1, ty.rank)
        shape = list(ty.shape[ty.rank - keep:])
        if rng.random() < 0.5:
            shape[rng.randrange(len(shape))] = 1
        return TensorType(shape, ty.dtype)

    def binary(self, ty, depth, env):
        ops = ["add", "subtract", "multiply", "maximum", "minimum"]
        op = self.rng.choice(ops)
        a = self.expr(ty, depth - 1, env)
        b = self.expr(self.broadcast_partner(ty), depth - 1, env)
        if self.rng.random() < 0.5:
            a, b = b, a
        return "%s(%s, %s)" % (op, a, b)

    def reduce(self, ty, depth, env):
        if ty.rank >= 3:
            return None
        axis = self.rng.randint(0, ty.rank)
        src = list(ty.shape)
        src.insert(axis, self.rng.randint(1, 4))
        ops = ["sum", "max", "min"] + (["mean"] if ty.dtype == FLOAT else [])
        if ty.dtype == FLOAT and self.gradient:
            ops.append("prod")  # (for gradients)
        x = self.expr(TensorType(src, ty.dtype), depth - 1, env)
        return "%s(%s, axis=[%d])" % (self.rng.choice(ops), x, axis)

    def transpose(self, ty, depth, env):
        if ty.rank < 2:
            return None
        perm = list(range(ty.rank))
        self.rng.shuffle(perm)
        # transpose(x, axes=p) has shape[i] = x.shape[p[i]].
        src = [0] * ty.rank
        for i, p in enumerate(perm):
            src[p] = ty.shape[i]
        x = self.expr(TensorType(src, ty.dtype), depth - 1, env)
        return "transpose(%s, axes=%s)" % (x, shape_list(perm))

    def reshape(self, ty, depth, env):
        n = ty.numel()
        factors = []
        rest = n
        for _ in range(self.rng.randint(0, 2)):
            divisors = [d for d in range(1, rest + 1) if rest % d == 0]
            d = self.rng.choice(divisors)
            factors.append(d)
            rest //= d
        factors.append(rest)
        x = self.expr(TensorType(factors, ty.dtype), depth - 1, env)
        return "reshape(%s, newshape=%s)" % (x, shape_list(ty.shape))

    def concat(self, ty, depth, env):
        axes = [i for i, d in enumerate(ty.shape) if d >= 2]
        if not axes:
            return None
        axis = self.rng.choice(axes)
        cut = self.rng.randint(1, ty.shape[axis] - 1)
        first, second = list(ty.shape), list(ty.shape)
        first[axis], second[axis] = cut, ty.shape[axis] - cut
        a = self.expr(TensorType(first, ty.dtype), depth - 1, env)
        b = self.expr(TensorType(second, ty.dtype), depth - 1, env)
        return "concatenate((%s, %s), axis=%d)" % (a, b, axis)

    def int_condition(self, depth, env, ty=None):
        """A boolean tensor decided by integers only."""
        ty = ty or TensorType((), INT)
        a = self.expr(TensorType(ty.shape, INT), depth - 1, env)
        op = self.rng.choice(["less", "greater", "equal", "greater_equal"])
        return "%s(%s, %s)" % (op, a, self.literal(INT))

    def where(self, ty, depth, env):
        cond = self.int_condition(depth, env, ty)
        return "where(%s, %s, %s)" % (cond, self.expr(ty, depth - 1, env),
                                      self.expr(ty, depth - 1, env))

    def if_expr(self, ty, depth, env):
        cond = self.int_condition(depth, env)
        return "if (%s) {\n%s\n} else {\n%s\n}" % (
            cond, self.block(ty, depth - 1, env),
            self.block(ty, depth - 1, env))

    def projection(self, ty, depth, env):
        other = self.tensor_type()
        fields = [self.expr(ty, depth - 1, env),
                  self.expr(other, depth - 1, env)]
        index = 0
        if self.rng.random() < 0.5:
            fields.reverse()
            index = 1
        return "(%s, %s).%d" % (fields[0], fields[1], index)

    def apply_closure(self, ty, depth, env):
        closures = [(name, t) for name, t in env
                    if isinstance(t, FnType) and t.result == ty]
        if not closures:
            return None
        name, fn = self.rng.choice(closures)
        args = [self.expr(p, depth - 1, env) for p in fn.params]
        return "%s(%s)" % (name, ", ".join(args))

    def cast(self, ty, depth, env):
        if ty.dtype != FLOAT:
            return None
        x = self.expr(TensorType(ty.shape, INT), depth - 1, env)
        return 'cast(%s, dtype="float32")' % x

    # Operators with kernels of their own (--nn) ----------------------------

    def reduction_length(self):
        return self.rng.randint(1, 9 if self.rng.random() < 0.8 else 70)

    def dense(self, ty, depth, env):
        if ty.rank != 2:
            return None
        k = self.reduction_length()
        x = self.expr(TensorType((ty.shape[0], k), ty.dtype), depth - 1, env)
        w = self.expr(TensorType((ty.shape[1], k), ty.dtype), depth - 1, env)
        return "nn.dense(%s, %s)" % (x, w)

    def batch_matmul(self, ty, depth, env):
        if ty.rank != 3:
            return None
        b, m, n = ty.shape
        k = self.reduction_length()
        x = self.expr(TensorType((b, m, k), ty.dtype), depth - 1, env)
        y = self.expr(TensorType((b, n, k), ty.dtype), depth - 1, env)
        return "nn.batch_matmul(%s, %s, transpose_b=True)" % (x, y)

    def window(self, out, pool):
        """A window's (kernel, stride, dilation, padding, input size) giving
        `out` outputs; a pool's padding leaves a real element in every
        window."""
        rng = self.rng
        k, s = rng.randint(1, 3), rng.randint(1, 2)
        d = 1 if pool or rng.random() < 0.7 else 2
        span = (k - 1) * d + 1
        p = rng.randint(0, k - 1 if pool else span // 2 + 1)
        size = (out - 1) * s + span - 2 * p + rng.randint(0, s - 1)
        if size < 1 or (pool and p > k - 1):
            p = 0
            size = (out - 1) * s + span
        return k, s, d, p, size

    def conv2d(self, ty, depth, env):
        """A [c, h, w] result: an NCHW convolution of one image, grouped
        or depthwise now and then, reshaped."""
        if ty.rank != 3 or ty.dtype != FLOAT:
            return None
        rng = self.rng
        c, h, w = ty.shape
        groups = rng.choice([g for g in range(1, c + 1) if c % g == 0])
        per_group = 1 if rng.random() < 0.3 else rng.randint(1, 3)
        kh, sh, dh, ph, ih = self.window(h, False)
        kw, sw, dw, pw, iw = self.window(w, False)
        ci = groups * per_group
        layouts = ""
        if rng.random() < 0.3:
            # Channels last: the result's [h, w, c] read as [c, h, w].
            x = self.expr(TensorType((1, ih, iw, ci), FLOAT), depth - 1, env)
            weight = self.expr(TensorType((kh, kw, per_group, c), FLOAT),
                               depth - 1, env)
            layouts = ', data_layout="NHWC", kernel_layout="HWIO"'
        else:
            x = self.expr(TensorType((1, ci, ih, iw), FLOAT), depth - 1, env)
            weight = self.expr(TensorType((c, per_group, kh, kw), FLOAT),
                               depth - 1, env)
        return ("reshape(nn.conv2d(%s, %s, strides=[%d, %d], "
                "padding=[%d, %d, %d, %d], dilation=[%d, %d], groups=%d, "
                "channels=%d, kernel_size=[%d, %d]%s), newshape=%s)") % (
            x, weight, sh, sw, ph, pw, ph, pw, dh, dw, groups, c, kh, kw,
            layouts, shape_list(ty.shape))

    def conv2d_transpose(self, ty, depth, env):
        """A [c, h, w] result of a transposed convolution of one image."""
        if ty.rank != 3 or ty.dtype != FLOAT:
            return None
        rng = self.rng
        c, h, w = ty.shape
        dims = []
        for out in (h, w):
            # out = (in - 1) * s - 2p + (k - 1) + output_padding + 1.
            options = [(k, st, p, op)
                       for k in (1, 2, 3) for st in (1, 2) for p in (0, 1)
                       for op in range(st)
                       if (out - 1 + 2 * p - (k - 1) - op) % st == 0 and
                       (out - 1 + 2 * p - (k - 1) - op) // st >= 0 and
                       p <= k - 1]
            if not options:
                return None
            k, st, p, op = rng.choice(options)
            dims.append((k, st, p, op,
                         (out - 1 + 2 * p - (k - 1) - op) // st + 1))
        (kh, sh, ph, oph, ih), (kw, sw, pw, opw, iw) = dims
        ci = rng.randint(1, 4)
        x = self.expr(TensorType((1, ci, ih, iw), FLOAT), depth - 1, env)
        weight = self.expr(TensorType((ci, c, kh, kw), FLOAT), depth - 1, env)
        return ("reshape(nn.conv2d_transpose(%s, %s, strides=[%d, %d], "
                "padding=[%d, %d, %d, %d], output_padding=[%d, %d], "
                "channels=%d, kernel_size=[%d, %d]), newshape=%s)") % (
            x, weight, sh, sw, ph, pw, ph, pw, oph, opw, c, kh, kw,
            shape_list(ty.shape))

    def global_pool(self, ty, depth, env):
        """Any float result: the global pool of as many channels."""
        if ty.dtype != FLOAT:
            return None
        h, w = self.rng.randint(1, 9), self.rng.randint(1, 9)
        x = self.expr(TensorType((1, ty.numel(), h, w), FLOAT), depth - 1,
                      env)
        op = self.rng.choice(["nn.global_avg_pool2d", "nn.global_max_pool2d"])
        return "reshape(%s(%s), newshape=%s)" % (op, x, shape_list(ty.shape))

    def gather(self, ty, depth, env):
        if ty.rank == 0:
            return None
        axis = self.rng.randrange(ty.rank)
        n = self.rng.randint(1, 5)
        data = list(ty.shape)
        data[axis] = n
        x = self.expr(TensorType(data, ty.dtype), depth - 1, env)
        indices = self.expr(TensorType(ty.shape, INT), depth - 1, env)
        return "gather(%s, clip(%s, a_min=0, a_max=%d), axis=%d)" % (
            x, indices, n - 1, axis)

    def indexed_split(self, ty):
        """ty as (positions, rest): an indexing op's result is the index
        tensors' shape followed by the data's axes after the indexed ones."""
        k = self.rng.randint(0, ty.rank)
        return list(ty.shape[:k]), list(ty.shape[k:])

    def gather_nd(self, ty, depth, env):
        """Coordinates of any value: negative and past the end too (each
        clipped to its axis)."""
        positions, rest = self.indexed_split(ty)
        m = self.rng.randint(1, 2)
        data = [self.rng.randint(1, 4) for _ in range(m)] + rest
        x = self.expr(TensorType(data, ty.dtype), depth - 1, env)
        indices = self.expr(TensorType([m] + positions, INT), depth - 1, env)
        return "gather_nd(%s, %s)" % (x, indices)

    def adv_index(self, ty, depth, env):
        positions, rest = self.indexed_split(ty)
        k = self.rng.randint(1, 2)
        data = [self.rng.randint(1, 4) for _ in range(k)] + rest
        fields = [self.expr(TensorType(data, ty.dtype), depth - 1, env)]
        fields += [self.expr(TensorType(positions, INT), depth - 1, env)
                   for _ in range(k)]
        return "adv_index((%s))" % ", ".join(fields)

    def one_hot(self, ty, depth, env):
        """Indices out of [0, depth) give a row of off values."""
        if ty.rank == 0:
            return None
        axis = self.rng.randrange(-1, ty.rank)
        where = axis % ty.rank
        src = list(ty.shape)
        del src[where]
        indices = self.expr(TensorType(src, INT), depth - 1, env)
        return 'one_hot(%s, %s, %s, depth=%d, axis=%d, dtype="%s")' % (
            indices, self.literal(ty.dtype), self.literal(ty.dtype),
            ty.shape[where], axis, ty.dtype)

    def pool2d(self, ty, depth, env):
        if ty.rank != 3 or ty.dtype != FLOAT:
            return None
        c, h, w = ty.shape
        kh, sh, _, ph, ih = self.window(h, True)
        kw, sw, _, pw, iw = self.window(w, True)
        x = self.expr(TensorType((1, c, ih, iw), FLOAT), depth - 1, env)
        if self.rng.random() < 0.5:
            op = "nn.max_pool2d"
            extra = ""
        else:
            op = "nn.avg_pool2d"
            extra = ", count_include_pad=%s" % self.rng.choice(
                ["True", "False"])
        return ("reshape(%s(%s, pool_size=[%d, %d], strides=[%d, %d], "
                "padding=[%d, %d, %d, %d]%s), newshape=%s)") % (
            op, x, kh, kw, sh, sw, ph, pw, ph, pw, extra,
            shape_list(ty.shape))

    def softmax(self, ty, depth, env):
        if ty.rank == 0 or ty.dtype != FLOAT:
            return None
        op = self.rng.choice(["nn.softmax", "nn.log_softmax"])
        return "%s(%s, axis=%d)" % (op, self.expr(ty, depth - 1, env),
                                    self.rng.randrange(-ty.rank, ty.rank))

    def strided_slice(self, ty, depth, env):
        if ty.rank == 0:
            return None
        rng = self.rng
        src, begin, end, strides = [], [], [], []
        for d in ty.shape:
            s = rng.choice([1, 1, 2, 3, -1, -2])
            if s > 0:
                b = rng.randint(0, 2)
                e = b + (d - 1) * s + 1
                size = e + rng.randint(0, 2)
            else:
                # Ends stay >= 0: a negative end counts from the back.
                e = rng.randint(0, 1)
                b = e + (d - 1) * -s + 1
                size = b + 1 + rng.randint(0, 1)
            src.append(size)
            begin.append(b)
            end.append(e)
            strides.append(s)
        x = self.expr(TensorType(src, ty.dtype), depth - 1, env)
        return "strided_slice(%s, begin=%s, end=%s, strides=%s)" % (
            x, shape_list(begin), shape_list(end), shape_list(strides))

    def take(self, ty, depth, env):
        """take along an axis by integer indices that may fall outside it
        (mode clip or wrap), or inside it (fast)."""
        if ty.rank == 0:
            return None
        rng = self.rng
        axis = rng.randrange(ty.rank)
        n = rng.randint(1, 5)
        data = list(ty.shape)
        data[axis] = n
        x = self.expr(TensorType(data, ty.dtype), depth - 1, env)
        index_type = TensorType((ty.shape[axis],), INT)
        mode = rng.choice(["clip", "wrap", "fast"])
        indices = self.expr(index_type, depth - 1, env)
        if mode == "fast":
            indices = "clip(%s, a_min=0, a_max=%d)" % (indices, n - 1)
        return 'take(%s, %s, axis=%d, mode="%s")' % (x, indices, axis, mode)

    def expand_dims(self, ty, depth, env):
        ones = [i for i, d in enumerate(ty.shape) if d == 1]
        if not ones:
            return None
        axis = self.rng.choice(ones)
        src = list(ty.shape)
        del src[axis]
        return "expand_dims(%s, axis=%d)" % (
            self.expr(TensorType(src, ty.dtype), depth - 1, env), axis)

    def squeeze(self, ty, depth, env):
        if ty.rank >= 3:
            return None
        axis = self.rng.randint(0, ty.rank)
        src = list(ty.shape)
        src.insert(axis, 1)
        return "squeeze(%s, axis=[%d])" % (
            self.expr(TensorType(src, ty.dtype), depth - 1, env), axis)

    def broadcast_to(self, ty, depth, env):
        x = self.expr(self.broadcast_partner(ty), depth - 1, env)
        return "broadcast_to(%s, shape=%s)" % (x, shape_list(ty.shape))

    def tile(self, ty, depth, env):
        if ty.rank == 0:
            return None
        reps = [self.rng.choice([r for r in range(1, d + 1) if d % r == 0])
                for d in ty.shape]
        src = [d // r for d, r in zip(ty.shape, reps)]
        return "tile(%s, reps=%s)" % (
            self.expr(TensorType(src, ty.dtype), depth - 1, env),
            shape_list(reps))

    def reverse(self, ty, depth, env):
        if ty.rank == 0:
            return None
        return "reverse(%s, axis=%d)" % (self.expr(ty, depth - 1, env),
                                         self.rng.randrange(ty.rank))

    def bias_add(self, ty, depth, env):
        if ty.rank < 2:
            return None
        axis = self.rng.randrange(ty.rank)
        bias = self.expr(TensorType((ty.shape[axis],), ty.dtype), depth - 1,
                         env)
        return "nn.bias_add(%s, %s, axis=%d)" % (
            self.expr(ty, depth - 1, env), bias, axis)

    def normalization(self, ty, depth, env):
        """layer_norm, batch_norm (inference), instance_norm and
        group_norm of a float tensor, with scale and shift."""
        if ty.dtype != FLOAT or ty.rank < 2:
            return None
        rng = self.rng
        axis = rng.randrange(ty.rank)
        channels = TensorType((ty.shape[axis],), FLOAT)
        x = self.expr(ty, depth - 1, env)
        gamma = self.expr(channels, depth - 1, env)
        beta = self.expr(channels, depth - 1, env)
        kind = rng.choice(["layer", "batch", "instance", "group"])
        if kind == "batch":
            mean = self.expr(channels, depth - 1, env)
            var = "add(abs(%s), 0.5f)" % self.expr(channels, depth - 1, env)
            return "nn.batch_norm(%s, %s, %s, %s, %s, axis=%d).0" % (
                x, gamma, beta, mean, var, axis)
        if kind == "layer":
            return "nn.layer_norm(%s, %s, %s, axis=%d, epsilon=0.1f)" % (
                x, gamma, beta, axis)
        if ty.rank < 3 or axis != 1:
            return None
        if kind == "instance":
            return "nn.instance_norm(%s, %s, %s, axis=1, epsilon=0.1f)" % (
                x, gamma, beta)
        groups = [g for g in range(1, ty.shape[1] + 1) if ty.shape[1] % g == 0]
        return ("nn.group_norm(%s, %s, %s, num_groups=%d, axis=1, "
                "epsilon=0.1f)") % (x, gamma, beta, rng.choice(groups))

    def prelu(self, ty, depth, env):
        if ty.dtype != FLOAT or ty.rank < 1:
            return None
        axis = self.rng.randrange(ty.rank)
        alpha = self.expr(TensorType((ty.shape[axis],), FLOAT), depth - 1, env)
        return "nn.prelu(%s, %s, axis=%d)" % (self.expr(ty, depth - 1, env),
                                             alpha, axis)

    def resample(self, ty, depth, env):
        """nn.upsampling or image.resize2d (bilinear) to an NCHW float
        result from a smaller image."""
        if ty.dtype != FLOAT or ty.rank != 4:
            return None
        n, c, h, w = ty.shape
        if self.rng.random() < 0.5 and h % 2 == 0 and w % 2 == 0:
            x = self.expr(TensorType((n, c, h // 2, w // 2), FLOAT),
                          depth - 1, env)
            method = self.rng.choice(["nearest_neighbor", "bilinear"])
            return ("nn.upsampling(%s, scale_h=2f, scale_w=2f, "
                    "method=\"%s\")") % (x, method)
        x = self.expr(TensorType((n, c, self.rng.randint(1, 4),
                                  self.rng.randint(1, 4)), FLOAT),
                      depth - 1, env)
        mode = self.rng.choice(["half_pixel", "align_corners", "asymmetric"])
        return ("image.resize2d(%s, size=[%d, %d], method=\"linear\", "
                "coordinate_transformation_mode=\"%s\")") % (x, h, w, mode)

    def adaptive_pool(self, ty, depth, env):
        if ty.dtype != FLOAT or ty.rank != 4:
            return None
        n, c, h, w = ty.shape
        x = self.expr(TensorType((n, c, h + self.rng.randint(0, 4),
                                  w + self.rng.randint(0, 4)), FLOAT),
                      depth - 1, env)
        op = self.rng.choice(["nn.adaptive_avg_pool2d",
                              "nn.adaptive_max_pool2d"])
        return "%s(%s, output_size=[%d, %d])" % (op, x, h, w)

    def stack_or_repeat(self, ty, depth, env):
        if ty.rank < 1:
            return None
        axis = self.rng.randrange(ty.rank)
        parts = ty.shape[axis]
        rest = list(ty.shape)
        del rest[axis]
        if self.rng.random() < 0.5:
            items = [self.expr(TensorType(rest, ty.dtype), depth - 1, env)
                     for _ in range(parts)]
            return "stack((%s,), axis=%d)" % (", ".join(items), axis)
        divisors = [d for d in range(1, parts + 1) if parts % d == 0]
        repeats = self.rng.choice(divisors)
        src = list(ty.shape)
        src[axis] = parts // repeats
        return "repeat(%s, repeats=%d, axis=%d)" % (
            self.expr(TensorType(src, ty.dtype), depth - 1, env), repeats,
            axis)

    def variance(self, ty, depth, env):
        if ty.dtype != FLOAT or ty.rank >= 3:
            return None
        axis = self.rng.randint(0, ty.rank)
        src = list(ty.shape)
        src.insert(axis, self.rng.randint(2, 5))
        op = self.rng.choice(["variance", "std", "mean"])
        x = self.expr(TensorType(src, FLOAT), depth - 1, env)
        if op == "mean":
            return "mean(%s, axis=[%d])" % (x, axis)
        # TVM's variance takes the mean.
        v = self.fresh("%s")
        var = "variance(%s, mean(%s, axis=[%d], keepdims=True), axis=[%d])" % (
            v, v, axis, axis)
        if op == "std":
            # std's derivative is infinite where the variance is 0.
            var = "sqrt(add(%s, 0.1f))" % var
        return "{\n  let %s = %s;\n  %s\n}" % (v, x, var)

    def cumsum(self, ty, depth, env):
        if ty.rank == 0:
            return None
        return "cumsum(%s, axis=%d)" % (self.expr(ty, depth - 1, env),
                                        self.rng.randrange(ty.rank))

    def pad(self, ty, depth, env):
        if ty.rank == 0:
            return None
        widths, src = [], []
        for d in ty.shape:
            before = self.rng.randint(0, min(2, d - 1))
            after = self.rng.randint(0, min(2, d - 1 - before))
            widths.append("[%d, %d]" % (before, after))
            src.append(d - before - after)
        x = self.expr(TensorType(src, ty.dtype), depth - 1, env)
        return "nn.pad(%s, %s, pad_width=[%s])" % (
            x, self.literal(ty.dtype), ", ".join(widths))

    def fn_literal(self, params, result, depth, env):
        """`fn (%p: T, ...) -> R { ... }` over `params`, capturing `env`."""
        names = [self.fresh("%p") for _ in params]
        inner = env + list(zip(names, params))
        header = ", ".join("%s: %s" % (n, t.text())
                           for n, t in zip(names, params))
        return "fn (%s) -> %s {\n%s\n}" % (header, result.text(),
                                            self.block(result, depth - 1,
                                                       inner))

    def list_literal(self, ty, depth, env, length):
        text = "Nil"
        for _ in range(length):
            text = "Cons(%s, %s)" % (self.expr(ty, depth - 1, env), text)
        return text

    def fold_list(self, ty, depth, env):
        elem = self.tensor_type(max_rank=2)
        f = self.fn_literal([ty, elem], ty, depth - 1, env)
        return "@foldl(%s, %s, %s)" % (
            f, self.expr(ty, depth - 1, env),
            self.list_literal(elem, depth - 1, env, self.rng.randint(0, 3)))

    def match_list(self, ty, depth, env):
        elem = self.tensor_type(max_rank=2)
        head = self.fresh("%h")
        length = self.rng.randint(0, 2)
        # The head's annotation types an empty list too.
        return ("match (%s) {\n  Cons(%s: %s, _) => {\n%s\n  },\n"
                "  Nil => {\n%s\n  },\n}") % (
            self.list_literal(elem, depth - 1, env, length), head,
            elem.text(),
            self.block(ty, depth - 1, env + [(head, elem)]),
            self.block(ty, depth - 1, env))

    def map_list(self, ty, depth, env):
        elem = self.tensor_type(max_rank=2)
        f = self.fn_literal([elem], ty, depth - 1, env)
        return "@hd(@map(%s, %s))" % (
            f, self.list_literal(elem, depth - 1, env, self.rng.randint(1, 3)))

    def global_loop(self, ty, depth, env):
        """A call of a new global function recursing on a counter."""
        name = self.fresh("@loop")
        body = self.expr(ty, min(depth - 1, 2), [("%acc", ty)])
        self.globals.append(
            "def %s(%%i: int32, %%acc: %s) -> %s {\n"
            "  if (%%i > 0) {\n    %s(%%i - 1, %s)\n  } else {\n    %%acc\n"
            "  }\n}" % (name, ty.text(), ty.text(), name, body))
        return "%s(%d, %s)" % (name, self.rng.randint(0, 4),
                               self.expr(ty, depth - 1, env))

    def local_loop(self, ty, depth, env):
        """A local recursive closure capturing `env`, applied."""
        name, counter, acc = self.fresh("%loop"), self.fresh("%i"), \
            self.fresh("%acc")
        body = self.expr(ty, min(depth - 1, 2), env + [(acc, ty)])
        return ("{\n  let %s = fn (%s: int32, %s: %s) -> %s {\n"
                "    if (%s > 0) { %s(%s - 1, %s) } else { %s }\n  };\n"
                "  %s(%d, %s)\n}") % (
            name, counter, acc, ty.text(), ty.text(), counter, name, counter,
            body, acc, name, self.rng.randint(0, 3),
            self.expr(ty, depth - 1, env))

    def let_block(self, ty, depth, env):
        return "{\n%s\n}" % self.block(ty, depth - 1, env)

    # Blocks: let bindings of values, closures and references ---------------

    def block(self, ty, depth, env):
        rng = self.rng
        lines = []
        env = list(env)
        for _ in range(rng.randint(0, 3) if depth > 0 else 0):
            kind = rng.random()
            if kind < 0.45:
                t = self.tensor_type()
                name = self.fresh("%v")
                lines.append("let %s = %s;" % (name, self.expr(t, depth - 1,
                                                               env)))
                env.append((name, t))
            elif kind < 0.75:
                params = [self.tensor_type()
                          for _ in range(rng.randint(1, 2))]
                result = self.tensor_type()
                name = self.fresh("%f")
                lines.append("let %s = %s;" % (
                    name, self.fn_literal(params, result, depth - 1, env)))
                env.append((name, FnType(params, result)))
            else:
                t = self.tensor_type()
                ref, value = self.fresh("%r"), self.fresh("%v")
                lines.append("let %s = ref(%s);" % (ref, self.expr(
                    t, depth - 1, env)))
                lines.append("let %s = ref_write(%s, %s);" % (
                    self.fresh("%w"), ref, self.expr(t, depth - 1, env)))
                lines.append("let %s = ref_read(%s);" % (value, ref))
                env.append((value, t))
        lines.append(self.expr(ty, depth, env))
        return "\n".join(lines)

    def tuple_block(self, ty, depth, env):
        """A tuple of TupleType `ty`, each tensor field a block of its own."""
        fields = [self.tuple_block(f, depth, env) if isinstance(f, TupleType)
                  else "{\n%s\n}" % self.block(f, depth, env)
                  for f in ty.fields]
        return "(%s%s)" % (", ".join(fields), "," if len(fields) == 1 else "")


def generate_module(seed, programs=1, depth=4, nn=False, float_results=False,
                    tuples=False):
    """A module whose @main takes a few tensors and returns a tuple of
    `programs` results, each computed by its own function; returns the text
    and @main's parameter types. `nn` adds the operators with kernels of
    their own; `float_results` makes every result and the first parameter
    float32 (what a gradient is asked of). `tuples` makes parameters
    tuples now and then (the programs read their tensors by projection)
    and each result a tuple, nested now and then, its first tensor
    float32 with `float_results`."""
    gen = Generator(seed, nn, gradient=float_results)
    first = FLOAT if float_results else None
    if tuples:
        params = [gen.tuple_type(dtype=first if i == 0 else None)
                  if gen.rng.random() < 0.5 else
                  gen.tensor_type(first if i == 0 else None)
                  for i in range(gen.rng.randint(1, 3))]
    else:
        params = [gen.tensor_type() for _ in range(gen.rng.randint(1, 3))]
        if float_results:
            params[0] = TensorType(params[0].shape, FLOAT)
    names = ["%%x%d" % i for i in range(len(params))]
    header = ", ".join("%s: %s" % (n, t.text())
                       for n, t in zip(names, params))
    env = []
    for name, t in zip(names, params):
        env.extend(t.leaves(name) if isinstance(t, TupleType) else
                   [(name, t)])
    functions, calls = [], []
    for k in range(programs):
        if tuples:
            result = gen.tuple_type(dtype=first)
            body = gen.tuple_block(result, depth, env)
        else:
            result = gen.tensor_type(FLOAT if float_results else None)
            body = gen.block(result, depth, env)
        functions.append("def @program%d(%s) -> %s {\n%s\n}" % (
            k, header, result.text(), body))
        calls.append("@program%d(%s)" % (k, ", ".join(names)))
    main = "def @main(%s) {\n  (%s,)\n}" % (header, ", ".join(calls))
    text = '#[version = "0.0.5"]\n' + "\n\n".join(
        gen.globals + functions + [main]) + "\n"
    return text, params


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("seed", type=int)
    parser.add_argument("--programs", type=int, default=1)
    parser.add_argument("--depth", type=int, default=4)
    parser.add_argument("--nn", action="store_true",
                        help="also products, convolutions, pools, slices, "
                             "gathers, pads ...")
    parser.add_argument("--tuples", action="store_true",
                        help="tuples (nested) as parameters and results")
    args = parser.parse_args()
    text, _ = generate_module(args.seed, args.programs, args.depth, args.nn,
                              tuples=args.tuples)
    sys.stdout.write(text)


if __name__ == "__main__":
    main()
