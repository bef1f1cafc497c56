"""inspect.signature for the C++ functions and classes: nanobind keeps each one's signature as text
(``__nb_signature__``), which ``inspect`` cannot read. The package's public functions become thin Python wrappers with a
``__signature__`` (and the C++ docstring); classes get a ``__signature__`` from their constructor. Annotations stay the
text nanobind wrote (the .pyi stubs carry the same types for type checkers)."""
import functools
import inspect


def _scan(text, depth=0):
    """(index, character, bracket depth after it) of every character of `text` outside quotes."""
    quote = None
    for i, ch in enumerate(text):
        if quote:
            quote = None if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        else:
            depth += (ch in "([{") - (ch in ")]}")
            yield i, ch, depth


def _split_top(text, sep=","):
    """Splits at `sep` outside brackets and quotes."""
    parts, start = [], 0
    for i, ch, depth in _scan(text):
        if ch == sep and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p.strip() for p in parts if p.strip()]


class _Default:
    """A default value shown as nanobind printed it when the value itself is not at hand."""

    def __init__(self, text):
        self.text = text

    def __repr__(self):
        return self.text


def signature_of(nb_signature, drop_self=False):
    """The inspect.Signature of nanobind's first signature text, or None when it cannot be read."""
    text, _doc, defaults = nb_signature
    if not text.startswith("def ") or "(" not in text:
        return None
    _, _, rest = text.partition("(")
    end = next((i for i, _, depth in _scan(rest, depth=1) if depth == 0), None)  # the parameter list's ")"
    if end is None:
        return None
    params_text, tail = rest[:end], rest[end + 1:]
    ret = tail.split("->", 1)[1].strip() if "->" in tail else inspect.Signature.empty
    kind = inspect.Parameter.POSITIONAL_OR_KEYWORD
    params = []
    for p in _split_top(params_text):
        if p == "/":
            params = [q.replace(kind=inspect.Parameter.POSITIONAL_ONLY) for q in params]
            continue
        if p == "*":
            kind = inspect.Parameter.KEYWORD_ONLY
            continue
        name_ann, _, default = p.partition(" = ")
        name, _, ann = name_ann.partition(":")
        name, ann = name.strip(), ann.strip() or inspect.Parameter.empty
        this_kind = kind
        if name.startswith("**"):
            name, this_kind = name[2:], inspect.Parameter.VAR_KEYWORD
        elif name.startswith("*"):
            name, this_kind, kind = name[1:], inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.KEYWORD_ONLY
        value = inspect.Parameter.empty
        if default:
            default = default.strip()
            if default.startswith("\\") and default[1:].isdigit() and defaults is not None:
                value = defaults[int(default[1:])]
            else:
                value = _Default(default)
        if not name.isidentifier():
            return None
        params.append(inspect.Parameter(name, this_kind, default=value, annotation=ann))
    if drop_self and params and params[0].name == "self":
        params = params[1:]
    try:
        return inspect.Signature(params, return_annotation=ret)
    except ValueError:  # e.g. a default before a required parameter in an odd overload
        return None


def _is_nb_function(obj):
    return type(obj).__name__ in ("nb_func", "nb_method") and hasattr(obj, "__nb_signature__")


def with_signature(func, module=None):
    """A Python function calling the nanobind function `func`, with its signature and docstring (and `module` as its
    __module__, so that pickle finds it where the package exports it)."""
    sig = signature_of(func.__nb_signature__[0])

    @functools.wraps(func, assigned=("__module__", "__name__", "__qualname__"), updated=())
    def wrapper(*args, **kwargs):
        return func(*args, **kwargs)

    doc = "\n\n".join(d for _, d, _ in func.__nb_signature__ if d) or None
    if len(func.__nb_signature__) > 1:  # overloads: list every form
        forms = "\n".join(t.replace("\\", "") for t, _, _ in func.__nb_signature__)
        doc = f"{forms}\n\n{doc or ''}".strip()
    wrapper.__doc__ = doc
    wrapper.__wrapped_cpp__ = func
    if module:
        wrapper.__module__ = module
    if sig is not None:
        wrapper.__signature__ = sig
    return wrapper


def expose(namespace, names):
    """Replaces each public nanobind function of `names` in `namespace` (a module's globals) by a wrapper with a
    signature, and gives each nanobind class a signature from its constructor."""
    for name in names:
        obj = namespace.get(name)
        if obj is None or name.startswith("_"):
            continue
        if _is_nb_function(obj):
            namespace[name] = with_signature(obj, namespace.get("__name__"))
        elif isinstance(obj, type) and _is_nb_function(getattr(obj, "__init__", None)):
            sig = signature_of(obj.__init__.__nb_signature__[0], drop_self=True)
            if sig is not None:
                try:
                    obj.__signature__ = sig.replace(return_annotation=inspect.Signature.empty)
                except (AttributeError, TypeError):
                    pass
