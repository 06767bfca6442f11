"""A dict to TOML, for configurations given as dicts. Only what rota's
configuration uses: tables, arrays of tables, strings, numbers, booleans
and arrays of those. tomllib (3.11) reads TOML but does not write it."""

import math


def _key(k):
    k = str(k)
    if k and all(c.isalnum() or c in "-_" for c in k):
        return k
    return _string(k)


def _string(s):
    out = ['"']
    for c in s:
        if c in '"\\':
            out.append("\\" + c)
        elif c == "\n":
            out.append("\\n")
        elif c == "\t":
            out.append("\\t")
        elif ord(c) < 0x20 or ord(c) == 0x7F:
            out.append(f"\\u{ord(c):04x}")
        else:
            out.append(c)
    out.append('"')
    return "".join(out)


def _value(v, where):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    if isinstance(v, str):
        return _string(v)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_value(x, where) for x in v) + "]"
    if isinstance(v, dict):  # an inline table, inside an array
        return "{" + ", ".join(f"{_key(k)} = {_value(x, where)}" for k, x in v.items()) + "}"
    if hasattr(v, "item"):  # numpy scalars
        return _value(v.item(), where)
    raise TypeError(f"{where}: a {type(v).__name__} has no TOML form")


def _is_table_array(v):
    return isinstance(v, (list, tuple)) and v and all(isinstance(x, dict) for x in v)


def dumps(d):
    """The TOML text of dict `d`."""
    lines = []
    _table(d, [], lines)
    return "\n".join(lines).lstrip("\n") + "\n"


def _table(d, path, lines):
    name = ".".join(_key(p) for p in path)
    plain = [(k, v) for k, v in d.items() if not isinstance(v, dict) and not _is_table_array(v)]
    for k, v in plain:
        lines.append(f"{_key(k)} = {_value(v, name + '.' + str(k) if name else str(k))}")
    for k, v in d.items():
        if isinstance(v, dict):
            lines.append("")
            lines.append(f"[{'.'.join(_key(p) for p in path + [k])}]")
            _table(v, path + [k], lines)
        elif _is_table_array(v):
            for item in v:
                lines.append("")
                lines.append(f"[[{'.'.join(_key(p) for p in path + [k])}]]")
                _table(item, path + [k], lines)
