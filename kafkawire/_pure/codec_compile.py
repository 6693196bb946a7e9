"""The pure-Python codec's plans compiled to Python functions.

Interpreting a plan field by field costs a function call and a few branches per field;
instead each plan is turned, once, into three small Python functions (read, size,
write) whose statements are the plan's fields in order: a run of fixed-width numbers
becomes one struct.unpack_from/pack_into, arrays of numbers one call, nested structs
direct calls of their own compiled functions.  Anything unusual (strings, bytes,
tagged sections, errors) goes through the general helpers of :mod:`kafkawire._pure.codec`
(handed in as ``runtime``), so the behaviour is
the interpreter's.
"""

from __future__ import annotations

import struct as _struct
from typing import Any, Callable, Dict, List, Tuple

from kafkawire.protocol.schema.plan import (
    ARRAY,
    BOOL,
    BYTES,
    FLOAT64,
    INT8,
    INT16,
    INT32,
    INT64,
    RECORDS,
    STRING,
    STRUCT,
    UINT16,
    UINT32,
    FieldPlan,
    StructPlan,
)

__all__ = ["compile_plan"]

# What pass 1 caches for pass 2 (UTF-8 bytes, tagged sizes), and how pass 2 takes it.
_Cache = List[Any]
_Next = Callable[[], Any]
_Reader = Callable[[memoryview, int, int], Tuple[Any, int]]
_Writer = Callable[[Any, bytearray, int, _Next], int]

_ELEM = {
    k: _struct.Struct(">" + c)
    for k, c in (
        (BOOL, "?"),
        (INT8, "b"),
        (INT16, "h"),
        (UINT16, "H"),
        (INT32, "i"),
        (UINT32, "I"),
        (INT64, "q"),
        (FLOAT64, "d"),
    )
}


class _Compiled:
    __slots__ = ("read", "size", "write")
    read: _Reader
    size: Callable[[Any, _Cache], int]
    write: _Writer


def _attr_ok(name: str) -> bool:
    import keyword

    return name.isidentifier() and not keyword.iskeyword(name)


def _attr_get(obj: str, p: FieldPlan) -> str:
    """Source reading field ``p`` of ``obj``."""
    return f"{obj}.{p.attr}" if _attr_ok(p.attr) else f"getattr({obj}, {p.attr!r})"


def _attr_set(p: FieldPlan, value: str) -> str:
    """Source setting field ``p`` of ``obj`` to ``value``."""
    return f"obj.{p.attr} = {value}" if _attr_ok(p.attr) else f"set(obj, {p.attr!r}, {value})"


def _emit_read_array(r: List[str], p: FieldPlan, k: int, env: Dict[str, Any]) -> None:
    """Append to ``r`` the lines reading array field ``p`` (step ``k``) of fixed-width
    elements or of structs."""
    if p.compact:
        r.append("    if pos < end and mv[pos] < 0x80:")
        r.append("        n = mv[pos] - 1")
        r.append("        pos += 1")
        r.append("    else:")
        r.append("        n, pos = read_uvarint(mv, pos, end)")
        r.append("        n -= 1")
    else:
        r.append(f"    if end - pos < 4: raise trunc('{p.attr} array length', pos, 4, end)")
        r.append("    n, = I32(mv, pos)")
        r.append("    pos += 4")
    r.append("    if n < 0:")
    if p.nullable:
        r.append(f"        if n != -1: raise bad_count(P{k}, n, pos)")
        r.append("        " + _attr_set(p, "None"))
    else:
        r.append(f"        raise bad_count(P{k}, n, pos)")
    r.append("    else:")
    if p.elem_kind == STRUCT:
        sp = p.sub
        assert sp is not None  # a struct field's plan has its struct's plan
        env[f"SUB{k}"] = sp
        env[f"MIN{k}"] = sp.min_size
        r.append(f"        if n > end - pos or n * MIN{k} > end - pos:")
        r.append(f"            raise trunc('{p.attr} array of ' + str(n), pos, n * max(MIN{k}, 1), end)")
        if (
            all(st is not None for st, _ in sp.steps)
            and all(_attr_ok(q.attr) for _, run in sp.steps for q in run)
            and all(q.factory is None and _attr_ok(q.attr) for q in sp.absent + sp.tagged)
        ):
            # Elements of fixed-width fields only (ApiVersion, say): read in the
            # loop, the statements of the element's own reader without the call.
            env[f"EC{k}"] = sp.cls
            env[f"ESUB{k}"] = sp
            r.append("        lst = []")
            r.append("        app = lst.append")
            r.append("        for _ in range(n):")
            r.append(f"            e = new(EC{k})")
            for j, (st, run) in enumerate(sp.steps):
                env[f"ES{k}_{j}"] = st.unpack_from
                env[f"ER{k}_{j}"] = run
                names = [f"x{i}" for i in range(len(run))]
                r.append(
                    f"            if end - pos < {st.size}: raise trunc_run(ER{k}_{j}, pos, {st.size}, end)"
                )
                r.append(f"            {', '.join(names)}, = ES{k}_{j}(mv, pos)")
                r.append(f"            pos += {st.size}")
                for q, name in zip(run, names):
                    r.append(f"            e.{q.attr} = {name}")
            for i, q in enumerate(sp.absent + sp.tagged):
                env[f"ED{k}_{i}"] = q.default
                r.append(f"            e.{q.attr} = ED{k}_{i}")
            if sp.flexible:
                r.append("            if pos < end and mv[pos] == 0:")
                r.append("                pos += 1")
                r.append("                e._unknown_tagged = None")
                r.append("            else:")
                r.append(f"                pos = read_tags(ESUB{k}, e, mv, pos, end)")
            else:
                r.append("            e._unknown_tagged = None")
            r.append("            app(e)")
            r.append("        " + _attr_set(p, "lst"))
            return
        sub_compiled = sp.pure if sp.pure is not None else env["compile_plan"](sp)
        sub_read = getattr(sub_compiled, "read", None)
        if sub_read is not None:  # nested plans are compiled first, so bound here
            env[f"SUBR{k}"] = sub_read
            r.append(f"        sub = SUBR{k}")
        else:
            r.append(f"        sub = SUB{k}.pure")
            r.append(f"        if sub is None: sub = compile_plan(SUB{k})")
            r.append("        sub = sub.read")
        r.append("        lst = []")
        r.append("        app = lst.append")
        r.append("        for _ in range(n):")
        r.append("            v, pos = sub(mv, pos, end)")
        r.append("            app(v)")
        r.append("        " + _attr_set(p, "lst"))
    else:
        est = _ELEM[p.elem_kind]
        code, w = est.format[1:], est.size
        r.append(
            f"        if n * {w} > end - pos: raise trunc('{p.attr} array of ' + str(n), pos, n * {w}, end)"
        )
        r.append("        " + _attr_set(p, f"list(array_fmt({code!r}, n).unpack_from(mv, pos)) if n else []"))
        r.append(f"        pos += n * {w}")


def _emit_read(plan: StructPlan, env: Dict[str, Any]) -> List[str]:
    """The source of ``read(mv, pos, end) -> (obj, pos)`` for ``plan``; what it
    refers to goes into ``env``."""
    r = ["def read(mv, pos, end):", "    obj = new(cls)"]
    for k, (st, item) in enumerate(plan.steps):
        if st is not None:
            env[f"S{k}"] = st.unpack_from
            env[f"R{k}"] = item
            names = [f"a{k}_{i}" for i in range(len(item))]
            r.append(f"    if end - pos < {st.size}: raise trunc_run(R{k}, pos, {st.size}, end)")
            r.append(f"    {', '.join(names)}, = S{k}(mv, pos)")
            r.append(f"    pos += {st.size}")
            for p, name in zip(item, names):
                r.append("    " + _attr_set(p, name))
            continue
        p = item
        env[f"P{k}"] = p
        if p.kind == ARRAY and (p.elem_kind in _ELEM or p.elem_kind == STRUCT):
            _emit_read_array(r, p, k, env)
            continue
        if p.kind == STRING:
            # A non-null string whose length fits: inline; null, truncated or invalid
            # UTF-8 go through read_field from the same position (same errors).
            if p.compact:
                r.append("    if pos < end and 0 < mv[pos] < 0x80 and mv[pos] <= end - pos:")
                r.append("        q = pos + mv[pos]")
                r.append("        try:")
                r.append("            v = str(mv[pos + 1:q], 'utf-8')")
            else:
                r.append("    if end - pos >= 2 and 0 <= I16(mv, pos)[0] <= end - pos - 2:")
                r.append("        q = pos + 2 + I16(mv, pos)[0]")
                r.append("        try:")
                r.append("            v = str(mv[pos + 2:q], 'utf-8')")
            r.append("        except UnicodeDecodeError:")
            r.append(f"            v, q = read_field(P{k}, mv, pos, end)")
            r.append("        pos = q")
            r.append("    else:")
            r.append(f"        v, pos = read_field(P{k}, mv, pos, end)")
            r.append("    " + _attr_set(p, "v"))
            continue
        if p.kind == BYTES or p.kind == RECORDS:
            take = "mv[q:q + n]" if p.kind == RECORDS else "bytes(mv[q:q + n])"
            if p.compact:
                r.append("    if pos < end and mv[pos] < 0x80:")
                r.append("        n = mv[pos] - 1")
                r.append("        q = pos + 1")
                r.append("    elif end - pos >= 2 and mv[pos + 1] < 0x80:")  # two-byte varint
                r.append("        n = ((mv[pos] & 0x7F) | (mv[pos + 1] << 7)) - 1")
                r.append("        q = pos + 2")
                r.append("    else:")
                r.append("        n, q = read_uvarint(mv, pos, end)")
                r.append("        n -= 1")
            else:
                r.append("    if end - pos >= 4:")
                r.append("        n, = I32(mv, pos)")
                r.append("        q = pos + 4")
                r.append("    else:")
                r.append("        n = -2")
            r.append("    if 0 <= n <= end - q:")
            r.append(f"        v = {take}")
            r.append("        pos = q + n")
            r.append("    else:")
            r.append(f"        v, pos = read_field(P{k}, mv, pos, end)")
            r.append("    " + _attr_set(p, "v"))
            continue
        r.append(f"    v, pos = read_field(P{k}, mv, pos, end)")
        r.append("    " + _attr_set(p, "v"))
    for k, p in enumerate(plan.absent + plan.tagged):
        env[f"D{k}"] = p.default
        env[f"F{k}"] = p.factory
        sub = p.sub if p.kind == STRUCT and p.factory is not None else None
        sub_defaults = sub.cls._defaults if sub is not None else None
        if sub is not None and sub_defaults and all(f is None and _attr_ok(a) for a, _, f in sub_defaults):
            # A default struct of plain values (the usual absent tagged struct): built
            # inline, as the class's default maker would build it.
            env[f"DC{k}"] = sub.cls
            r.append(f"    t = new(DC{k})")
            for i, (a, value, _) in enumerate(sub_defaults):
                env[f"DV{k}_{i}"] = value
                r.append(f"    t.{a} = DV{k}_{i}")
            r.append("    t._unknown_tagged = None")
            r.append("    " + _attr_set(p, "t"))
            continue
        r.append("    " + _attr_set(p, f"F{k}()" if p.factory is not None else f"D{k}"))
    if plan.flexible:
        r.append("    if pos < end and mv[pos] == 0:")
        r.append("        pos += 1")
        r.append("        obj._unknown_tagged = None")
        r.append("    else:")
        r.append("        pos = read_tags(PLAN, obj, mv, pos, end)")
    else:
        r.append("    obj._unknown_tagged = None")
    r.append("    return obj, pos")
    return r


def _emit_size(plan: StructPlan, env: Dict[str, Any]) -> List[str]:
    """The source of ``size(obj, cache) -> int`` for ``plan``."""
    fixed = sum(p.width for p in plan.fields if p.width)
    z = ["def size(obj, cache):", f"    total = {fixed}"]
    fixed_attrs = [_attr_get("obj", p) for p in plan.fields if p.width]
    if fixed_attrs:
        z.append(f"    {', '.join(fixed_attrs)},")  # every field must be set
    for k, p in enumerate(plan.fields):
        if p.width:
            continue
        env[f"Q{k}"] = p
        z.append(f"    v = {_attr_get('obj', p)}")
        if p.kind == ARRAY and p.elem_kind in _ELEM and not p.compact:
            w = _ELEM[p.elem_kind].size
            z.append("    if v is None:")
            z.append(f"        total += size_value(Q{k}, v, cache)")
            z.append("    elif type(v) is list or isinstance(v, (list, tuple)):")
            z.append(f"        total += 4 + {w} * len(v)")
            z.append("    else:")
            z.append(f"        raise not_list(Q{k}, v)")
        elif p.kind == ARRAY and p.elem_kind == STRUCT:
            sub = p.sub
            assert sub is not None
            env[f"ZSUB{k}"] = sub
            env[f"ZCLS{k}"] = sub.cls
            z.append("    if v is None:")
            z.append(f"        total += size_value(Q{k}, v, cache)")
            z.append("    else:")
            z.append("        if type(v) is not list and not isinstance(v, (list, tuple)):")
            z.append(f"            raise not_list(Q{k}, v)")
            z.append(f"        total += {'uvarint_size(len(v) + 1)' if p.compact else '4'}")
            z.append(f"        sub = ZSUB{k}.pure")
            z.append(f"        if sub is None: sub = compile_plan(ZSUB{k})")
            z.append("        sub = sub.size")
            z.append("        for item in v:")
            z.append(f"            if type(item) is not ZCLS{k} and not isinstance(item, ZCLS{k}):")
            z.append(
                f"                raise EncodeError('{p.attr}: expected {sub.cls.__name__} items, got ' + type(item).__name__)"
            )
            z.append("            total += sub(item, cache)")
        else:
            z.append(f"    total += size_value(Q{k}, v, cache)")
    for k, p in enumerate(plan.absent):
        if p.ignorable:
            continue
        env[f"A{k}"] = p
        z.append(f"    v = {_attr_get('obj', p)}")
        z.append(f"    if not is_default(A{k}, v): raise absent_error(PLAN, A{k}, v)")
    if plan.flexible:
        if plan.tagged:
            z.append("    total += size_tags(PLAN, obj, cache)")
        else:
            z.append("    if getattr(obj, UNKNOWN, None): total += size_tags(PLAN, obj, cache)")
            z.append("    else: total += 1")
    else:
        z.append("    if getattr(obj, UNKNOWN, None): raise not_flexible(PLAN)")
    z.append("    return total")
    return z


def _null_or(p: FieldPlan, k: int) -> List[str]:
    """Lines loading field ``p`` into ``v``: a null one goes to write_value, and the
    lines that follow (indented 8) write a present one."""
    return [
        f"    v = {_attr_get('obj', p)}",
        "    if v is None:",
        f"        pos = write_value(P{k}, v, out, pos, nxt)",
        "    else:",
    ]


def _put_length(p: FieldPlan, n: str, width: int) -> List[str]:
    """Lines writing the length ``n`` of field ``p``: compact, else int16/int32."""
    if p.compact:
        return [f"        pos = write_uvarint(out, pos, {n} + 1)"]
    return [f"        I{8 * width}P(out, pos, {n})", f"        pos += {width}"]


def _emit_write(plan: StructPlan, env: Dict[str, Any]) -> List[str]:
    """The source of ``write(obj, out, pos, nxt) -> pos`` for ``plan``."""
    wl = ["def write(obj, out, pos, nxt):"]
    for k, (st, item) in enumerate(plan.steps):
        if st is not None:
            env[f"SP{k}"] = st.pack_into
            env[f"R{k}"] = item
            vals = [_attr_get("obj", p) for p in item]
            for p in item:
                if p.kind == FLOAT64:
                    wl.append(
                        f"    if not isinstance({_attr_get('obj', p)}, FLOAT_TYPES): check_fixed(R{k}[{item.index(p)}], {FLOAT64}, {_attr_get('obj', p)})"
                    )
            wl.append("    try:")
            wl.append(f"        SP{k}(out, pos, {', '.join(vals)})")
            wl.append("    except (struct_error, TypeError, OverflowError):")
            wl.append(f"        raise run_error(R{k}, obj) from None")
            wl.append(f"    pos += {st.size}")
            continue
        p = item
        env[f"P{k}"] = p
        if p.kind == ARRAY and p.elem_kind in _ELEM and p.elem_kind != BOOL:
            est = _ELEM[p.elem_kind]
            code = est.format[1:]
            wl += _null_or(p, k)
            wl.append("        n = len(v)")
            wl += _put_length(p, "n", 4)
            wl.append("        if n:")
            if p.elem_kind == FLOAT64:
                wl.append(
                    "            for x in v: check_fixed(P{k}, {FLOAT64}, x)".format(k=k, FLOAT64=FLOAT64)
                )
            wl.append("            try:")
            wl.append(f"                array_fmt({code!r}, n).pack_into(out, pos, *v)")
            wl.append("            except (struct_error, TypeError, OverflowError):")
            wl.append(f"                for x in v: check_fixed(P{k}, {p.elem_kind}, x)")
            wl.append(
                "                raise EncodeError('"
                + p.attr
                + ": a value changed while it was being encoded')"
            )
            wl.append(f"            pos += n * {est.size}")
            continue
        if p.kind == ARRAY and p.elem_kind == STRUCT:
            env[f"SUB{k}"] = p.sub
            wl += _null_or(p, k)
            wl += _put_length(p, "len(v)", 4)
            wl.append(f"        sub = SUB{k}.pure.write")
            wl.append("        for item in v:")
            wl.append("            pos = sub(item, out, pos, nxt)")
            continue
        if p.kind == STRING:
            wl += _null_or(p, k)
            wl.append("        raw = nxt()")
            wl.append("        n = len(raw)")
            wl += _put_length(p, "n", 2)
            wl.append("        out[pos:pos + n] = raw")
            wl.append("        pos += n")
            continue
        wl.append(f"    pos = write_value(P{k}, {_attr_get('obj', p)}, out, pos, nxt)")
    if plan.flexible:
        if plan.tagged:
            wl.append("    pos = write_tags(PLAN, obj, out, pos, nxt)")
        else:
            wl.append("    if getattr(obj, UNKNOWN, None): pos = write_tags(PLAN, obj, out, pos, nxt)")
            wl.append("    else:")
            wl.append("        out[pos] = 0")
            wl.append("        pos += 1")
    wl.append("    return pos")
    return wl


def compile_plan(plan: StructPlan, runtime: Dict[str, Any]) -> _Compiled:
    """``plan`` as three Python functions (read, size, write) that call the helpers in
    ``runtime``; its nested plans are compiled with it.  The result is also kept as
    ``plan.pure``."""
    compiled = _Compiled()
    env: Dict[str, Any] = {**runtime, "cls": plan.cls, "PLAN": plan}
    env["compile_plan"] = lambda sub: compile_plan(sub, runtime)
    r = _emit_read(plan, env)
    z = _emit_size(plan, env)
    wl = _emit_write(plan, env)
    source = "\n".join(r + [""] + z + [""] + wl) + "\n"
    code = compile(source, f"<kafkawire plan {plan.spec.name} v{plan.version}>", "exec")
    exec(code, env)
    compiled.read = env["read"]
    compiled.size = env["size"]
    compiled.write = env["write"]
    # Nested plans are compiled now, so write functions can reach them directly.
    for p in plan.fields + plan.tagged:
        if p.sub is not None and p.sub.pure is None:
            compile_plan(p.sub, runtime)
    # Published whole, last: another thread reads plan.pure without a lock (two threads
    # compiling one plan at once each make a complete one; either may stay).
    plan.pure = compiled
    return compiled
