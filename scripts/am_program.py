#!/usr/bin/env python3
"""am_program.py — the build's checks and image tool for program folders.

A program folder holds .c/.h files, behaviors.def (AM_BEHAVIOR(NAME, fn)
lines) and programs.def (AM_DEMO("name", AMB_BOOT, "what") lines);
docs/programs.md. The build (program.mk) calls:

  am_program.py key DIR
      the folder's key under build/programs/: its path relative to the
      checkout when inside it, else ext/NAME-HASH.
  am_program.py manifest DIR OUT [--cc CC]
      expands the two lists with the C preprocessor (what the compiler will
      see), checks them and writes OUT: "beh NAME fn FILE:LINE" per behavior
      (built-ins, library, folder, in id order) and "prog NAME ID FILE:LINE"
      per program. Errors: a missing list, an empty programs.def, two
      programs with one name, a behavior named like another one (the
      library's included), a boot behavior that is not in the lists.
  am_program.py defined MANIFEST OBJ...
      every behavior the folder lists must be defined in its objects (nm).
  am_program.py link DIR RAM [VAR=]STACK -- CC ARGS...
      runs the firmware link; when the image does not fit, says by how many
      bytes, for which program, and which make variable (VAR, default
      FW_STACK_MIN) keeps STACK bytes for the stack.
  am_program.py image MANIFEST BIN HEX DIR [NAME]
      fills the image header (firmware/crt0.S) of the raw image BIN: the
      behavior-table hash and count, the boot behavior (program NAME, or the
      first of programs.def), the hash of DIR's sources, the CRC-32; writes
      BIN back and HEX (one 32-bit
      little-endian word per line, for $readmemh); prints the image's size
      and stack budget.
  am_program.py loader BIN HEX [inplace]
      the same for a loader's image: the resident loader's
      (firmware/fw_link.c, FW_LOADER) or, with `inplace`, the in-place
      loader's (firmware/fw_inplace.c): its size and CRC-32, no behaviors,
      and the loader's kind in the boot-behavior word (0 resident, 1 in
      place: what it loads runs without the link).
  am_program.py srchash DIR
      prints the hash of the sources an image of DIR is built from (the
      folder's .c/.h/.def, lib/, include/am.h): the image header and the
      folder's host-side set both carry it, so am-sim can tell an image
      built from other sources than its own copy of the behaviors.
  am_program.py boot MANIFEST NAME
      prints the boot behavior id of program NAME.
  am_program.py subset MANIFEST AM_RUN NAME OUT.c [am-run options]
      a firmware behavior table for a board that runs program NAME alone
      (fpga.mk): every id keeps its place, but the behaviors that the
      reference run of NAME never dispatches (AM_RUN --trace, with the
      board's limits) point at a stub that fails (code 0xAB5E), so the
      linker drops their code. Replaces firmware/fw_table.c.

Every error is one line "FILE:LINE: what" (or "am_program: what") on
stderr, exit status 1.
"""
import difflib
import os
import re
import struct
import subprocess
import sys
import tempfile
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# ids 0..2: the built-ins, in the order of AM_BUILTIN_BEHAVIORS (host/am_rt.h)
# and firmware/fw_table.c; am-sim compares the resulting hash with its own
# table's, so a change on one side alone is reported at once.
BUILTINS = ["CONSOLE", "SINK", "ASK"]
MAGIC = 0x31494D41            # "AMI1", header word 1
HDR_WORDS = 12                # firmware/crt0.S: the header's words
HDR_SRC_HASH = 10
HDR_IFACE = 11                # the interface's identity (include/am_iface.def's AM_IF_ID)


class Fail(Exception):
    pass


def key(d):
    a = os.path.realpath(d)
    root = os.path.realpath(ROOT)
    if a == root or a.startswith(root + os.sep):
        rel = os.path.relpath(a, root)
        return rel if rel != "." else "top"
    h = zlib.crc32(a.encode()) & 0xffffffff
    name = re.sub(r"[^A-Za-z0-9_.-]", "_", os.path.basename(a)) or "program"
    return "ext/%s-%08x" % (name, h)


def rel(path):
    a = os.path.realpath(path)
    root = os.path.realpath(ROOT)
    return os.path.relpath(a, root) if a.startswith(root + os.sep) else a


MARK = "__am_program_entry__ "
BOOT_MARK = "__am_program_boot__"   # between a program's name and its boot behavior


def preprocess(d, cc):
    """The two lists as the compiler sees them, with file:line of each entry."""
    # each entry is marked with a word no list's line has (a program's
    # name may hold any character, and gets its own message below)
    src = ("#define AM_BEHAVIOR(NAME, fn) " + MARK + "beh NAME fn\n"
           "#include \"behaviors_all.def\"\n"
           "#undef AM_BEHAVIOR\n"
           "#define AM_DEMO(name, boot, what) " + MARK + "prog name " + BOOT_MARK + " boot\n"
           "#include \"programs.def\"\n")
    r = subprocess.run([cc, "-E", "-x", "c", "-I", d, "-I", os.path.join(ROOT, "lib"),
                        "-I", os.path.join(ROOT, "include"), "-"],
                       input=src, capture_output=True, text=True)
    if r.returncode != 0:
        # the first error, which names the list's file and line (the lines
        # before it only say from where the list was included)
        msg = r.stderr.strip().splitlines()
        errs = [l for l in msg if " error: " in l]
        raise Fail((errs or msg or ["the C preprocessor failed on %s" % d])[0]
                   .replace("<stdin>", "(the list's use)"))
    entries, fname, line = [], "?", 0
    for raw in r.stdout.splitlines():
        m = re.match(r'# (\d+) "([^"]*)"', raw)
        if m:
            line, fname = int(m.group(1)), m.group(2)
            continue
        parts = raw.split(MARK)
        if parts[0].strip() and fname != "<stdin>":
            # text that is no entry: a misspelled macro, say, which would
            # otherwise reach the compiler as C and fail far from its line
            raise Fail("%s:%d: '%s' is not an entry of the list: a line holds AM_BEHAVIOR(NAME, "
                       "function) in behaviors.def, AM_DEMO(\"name\", AMB_BOOT, \"what\") in "
                       "programs.def, or a comment (docs/programs.md)"
                       % (rel(fname), line, parts[0].strip()))
        for part in parts[1:]:
            w = part.split()
            entries.append((w[0], w[1:], "%s:%d" % (rel(fname), line)))
        line += 1
    return entries


def beh_w():
    """The bits of a behavior id (include/am_iface.def, BEH_W)."""
    m = re.search(r"AM_IF_SIZE\(BEH_W,\s*(\d+)", open(os.path.join(ROOT, "include", "am_iface.def")).read())
    if not m:
        raise Fail("include/am_iface.def: no BEH_W")
    return int(m.group(1))


def manifest(d, out, cc):
    if not os.path.isdir(d):
        raise Fail("program folder %s: no such directory" % d)
    for f in ("behaviors.def", "programs.def"):
        if not os.path.isfile(os.path.join(d, f)):
            raise Fail("%s: missing: a program folder needs behaviors.def and programs.def "
                       "(docs/programs.md)" % os.path.join(d, f))
    behs = [(n, "builtin", "host/am_rt.h") for n in BUILTINS]
    progs = []
    for kind, args, where in preprocess(d, cc):
        if kind == "beh":
            if len(args) != 2 or not all(re.match(r"^[A-Za-z_]\w*$", a) for a in args):
                raise Fail("%s: AM_BEHAVIOR(NAME, function): a name and a C function, one "
                           "identifier each" % where)
            name, fn = args
            for n, f, w in behs:
                if n == name:
                    raise Fail("%s: behavior %s is already defined at %s%s" % (
                        where, name, w, " (a library behavior: choose another name)"
                        if w.startswith("lib/") or f == "builtin" else ""))
                if f == fn:
                    raise Fail("%s: function %s already implements behavior %s (%s)" % (
                        where, fn, n, w))
            behs.append((name, fn, where))
        else:
            i = args.index(BOOT_MARK) if BOOT_MARK in args else len(args)
            m = re.match(r'^"((?:[^"\\]|\\.)*)"\s*$', " ".join(args[:i]))
            if not m:
                raise Fail("%s: a program's name must be a string literal" % where)
            name = m.group(1)
            boot = " ".join(args[i + 1:])
            if not re.match(r"^[A-Za-z_]\w*$", boot):
                raise Fail("%s: program '%s': the boot behavior must be one name, AMB_ and a "
                           "behavior of the lists (not '%s')" % (where, name, boot))
            if not re.match(r"^[A-Za-z0-9_.+-]+$", name):
                raise Fail("%s: program name '%s': use letters, digits and . _ + -" % (where, name))
            for n, _, w in progs:
                if n == name:
                    raise Fail("%s: a second program named '%s' (the first is at %s)" % (where, name, w))
            ids = [i for i, b in enumerate(behs) if "AMB_" + b[0] == boot]
            if ids and ids[0] < len(BUILTINS):
                raise Fail("%s: program '%s': boot behavior %s is a built-in one (the console, "
                           "the sink, the ask's proxy): a program starts with one of the folder's "
                           "or the library's" % (where, name, boot))
            if not ids:
                raise Fail("%s: program '%s': boot behavior %s is not in behaviors.def "
                           "or the library's list" % (where, name, boot))
            progs.append((name, ids[0], where))
    if not progs:
        raise Fail("%s: no programs (add AM_DEMO(\"name\", AMB_BOOT, \"what\") lines)"
                   % os.path.join(d, "programs.def"))
    most = 1 << beh_w()
    if len(behs) > most:
        n, _, w = behs[most]
        raise Fail("%s: behavior %s is the %dth: the machine's behavior ids have %d bits (BEH_W), "
                   "so a program has at most %d behaviors, the %d built-in and library ones included"
                   % (w, n, most + 1, most.bit_length() - 1, most,
                      sum(1 for _, f, w2 in behs if f == "builtin" or w2.startswith("lib/"))))
    with open(out + ".tmp", "w") as f:
        for n, fn, w in behs:
            f.write("beh %s %s %s\n" % (n, fn, w))
        for n, i, w in progs:
            f.write("prog %s %d %s\n" % (n, i, w))
    os.replace(out + ".tmp", out)


def read_manifest(path):
    behs, progs = [], []
    for line in open(path):
        w = line.split()
        if w[0] == "beh":
            behs.append((w[1], w[2], w[3]))
        elif w[0] == "prog":
            progs.append((w[1], int(w[2]), w[3]))
    return behs, progs


def defined(path, objs):
    behs, _ = read_manifest(path)
    r = subprocess.run(["nm", "--defined-only"] + objs, capture_output=True, text=True)
    if r.returncode != 0:
        raise Fail("nm failed: %s" % r.stderr.strip())
    have = {l.split()[-1] for l in r.stdout.splitlines() if len(l.split()) == 3
            and l.split()[1] in "TtWw"}
    for name, fn, where in behs:
        if where.startswith("lib/") or fn == "builtin":
            continue
        if fn not in have:
            # a function the lists name for no behavior, spelled nearly so
            listed = {f for _, f, _ in behs}
            near = difflib.get_close_matches(fn, sorted(have - listed), 1)
            raise Fail("%s: behavior %s: no function %s() is defined in the folder's .c files%s"
                       % (where, name, fn, " (did you mean %s()?)" % near[0] if near else ""))


def link(d, ram, stack, cmd):
    # stack: the minimum stack, as NAME=BYTES (the make variable that sets
    # it, for the message) or BYTES
    stack_var, _, stack = stack.rpartition("=")
    stack_var = stack_var or "FW_STACK_MIN"
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode == 0:
        sys.stderr.write(r.stderr)
        return 0
    m = re.search(r"region `RAM' overflowed by (\d+) bytes", r.stderr)
    if m:
        # the host link's areas at the top of RAM (firmware/link.ld), as
        # the link command defines them
        areas = sum(int(v, 0) for v in re.findall(r"--defsym=(?:LINK_AREA|LOAD_MAX)=(\w+)", " ".join(cmd)))
        # ... the stack's top rounded down to 4 KiB below them (link.ld)
        areas = int(ram, 0) - ((int(ram, 0) - areas) & ~0xFFF)
        link = ", and %d for the host link's areas: FW_LINK_AREA + FW_LOAD_MAX" % areas if areas else ""
        raise Fail("firmware: program %s does not fit: %s bytes over the RAM (%d bytes, "
                   "of which %d are kept for the stack: %s%s)" % (
                       d, m.group(1), int(ram, 0), int(stack, 0), stack_var, link))
    sys.stderr.write(r.stderr)
    return r.returncode


def src_hash(d):
    """CRC-32 over the names and contents of the sources of an image of d."""
    files = []
    for sub_dir, exts in ((d, (".c", ".h", ".def")), (os.path.join(ROOT, "lib"), (".c", ".h", ".def"))):
        files += sorted(os.path.join(sub_dir, f) for f in os.listdir(sub_dir) if f.endswith(exts))
    files.append(os.path.join(ROOT, "include", "am.h"))
    h = 0
    for f in files:
        h = zlib.crc32(os.path.basename(f).encode() + b"\0", h)
        with open(f, "rb") as fh:
            h = zlib.crc32(fh.read(), h)
    return h & 0xffffffff


def table_hash(names):
    h = 2166136261
    for n in names:
        for c in (n + "\n").encode():
            h = ((h ^ c) * 16777619) & 0xffffffff
    return h


def boot_of(behs, progs, name):
    if name is None:
        return progs[0][1]
    for n, i, _ in progs:
        if n == name:
            return i
    raise Fail("no program named '%s' (the folder has: %s)" % (name, " ".join(p[0] for p in progs)))


def iface_id():
    """AM_IF_ID's identity, once am_iface.py has checked that it is the
    entries' own (it stops the build with a message if an edit left it stale)."""
    sys.path.insert(0, os.path.join(ROOT, "scripts"))
    import am_iface
    return am_iface.num(am_iface.load()["ID"][0][1][1])


def seal(binp, hexp, fields):
    """Fill the image header of the raw image BIN (firmware/crt0.S): the
    words of fields ({index: value}), then the CRC-32 over the image with
    that word 0; write BIN back and HEX (one little-endian word a line).
    Returns the header words."""
    data = bytearray(open(binp, "rb").read())
    data += b"\0" * (-len(data) % 4)
    if len(data) < 4 * HDR_WORDS:
        raise Fail("%s: too short for an image header" % binp)
    w = list(struct.unpack_from("<%dI" % HDR_WORDS, data))
    if w[1] != MAGIC:
        raise Fail("%s: no image header at word 1 (firmware/crt0.S)" % binp)
    if w[2] != len(data):
        raise Fail("%s: the header says %d bytes, the image has %d" % (binp, w[2], len(data)))
    w[3] = 0
    w[HDR_IFACE] = iface_id()
    for i, v in fields.items():
        w[i] = v
    struct.pack_into("<%dI" % HDR_WORDS, data, 0, *w)
    w[3] = zlib.crc32(bytes(data)) & 0xffffffff
    struct.pack_into("<I", data, 12, w[3])
    open(binp, "wb").write(data)
    with open(hexp + ".tmp", "w") as f:
        for i in range(0, len(data), 4):
            f.write("%08x\n" % struct.unpack_from("<I", data, i)[0])
    os.replace(hexp + ".tmp", hexp)
    return w


def image(mpath, binp, hexp, name, folder):
    behs, progs = read_manifest(mpath)
    w = seal(binp, hexp, {4: table_hash([b[0] for b in behs]), 5: len(behs),
                          6: boot_of(behs, progs, name), HDR_SRC_HASH: src_hash(folder)})
    ram, bss_end, stack_min = w[8], w[9], w[7]
    print("firmware: %d bytes image + %d bss, stack budget %d bytes (minimum %d), stack top %d; "
          "%d behaviors, table hash %08x" % (w[2], bss_end - w[2], ram - bss_end,
                                             stack_min, ram, len(behs), w[4]))


LOADER_KINDS = {"resident": 0, "inplace": 1}


def loader(binp, hexp, kind="resident"):
    """A loader's image: the resident loader's (firmware/fw_link.c,
    FW_LOADER) or the in-place loader's (firmware/fw_inplace.c): its size
    and CRC-32, no behaviors (0 behaviors, table hash 0), its kind in the
    boot-behavior word (am-sim --loader reads it)."""
    w = seal(binp, hexp, {4: 0, 5: 0, 6: LOADER_KINDS[kind], HDR_SRC_HASH: 0})
    print("loader (%s): %d bytes image (the boot RAM must hold them)" % (kind, w[2]))


def subset(mpath, am_run, name, out, opts):
    behs, progs = read_manifest(mpath)
    boot = boot_of(behs, progs, name)
    r = subprocess.run([am_run, "--quiet", "--trace", "-"] + opts + [name],
                       capture_output=True, text=True)
    if r.returncode not in (0, 3):
        raise Fail("%s %s failed (exit %d): %s" % (am_run, name, r.returncode, r.stderr.strip()[-300:]))
    # --trace - writes the trace to stderr, the console keeps stdout
    used = sorted({int(m.group(1)) for m in re.finditer(r"^\d+ [CA] [0-9a-f]+ b(\d+)", r.stderr, re.M)})
    if r.returncode == 3:
        # am-run's budget ran out: a program that runs on (a ring, a
        # server) is measured over that many dispatches -- all its
        # behaviors would not fit an iCE40's boot RAM
        sys.stderr.write("subset: %s did not end within am-run's budget of dispatches: its image keeps "
                         "only what it dispatched so far (%d behavior%s); one it dispatches first later "
                         "fails there (code 0xAB5E)\n" % (name, len(used), "" if len(used) == 1 else "s"))
    if boot not in used:
        raise Fail("subset: %s never dispatched its boot behavior" % name)
    with open(out + ".tmp", "w") as f:
        f.write("/* Generated by scripts/am_program.py subset for program '%s' -- do not edit.\n"
                " * Behaviors dispatched by the reference run: %s */\n" % (name, " ".join(map(str, used))))
        f.write('#include "fw.h"\n#include "behaviors.h"\n\n')
        if any(i not in used for i in range(len(BUILTINS), len(behs))):
            f.write("static void fw_absent_beh(am_ctx *ctx) { am_fail(ctx, 0xAB5Eu); }\n\n")
        f.write("FW_DISPATCH_TABLE = {\n"
                "    FW_DISPATCH_ENTRIES       /* DEVICE, IDLE, the built-ins (fw.h) */\n")
        for i, (n, fn, _) in enumerate(behs[len(BUILTINS):], len(BUILTINS)):
            f.write("    %s,\n" % fn if i in used else "    fw_absent_beh, /* %d %s */\n" % (i, n))
        f.write("};\n\nFW_TABLE_END(fw_dispatch);\n")
    os.replace(out + ".tmp", out)


def main(argv):
    try:
        if len(argv) >= 2 and argv[0] == "key":
            print(key(argv[1]))
        elif len(argv) >= 3 and argv[0] == "manifest":
            cc = argv[argv.index("--cc") + 1] if "--cc" in argv else os.environ.get("CC", "gcc")
            manifest(argv[1], argv[2], cc)
        elif len(argv) >= 2 and argv[0] == "defined":
            defined(argv[1], argv[2:])
        elif len(argv) >= 6 and argv[0] == "link" and argv[4] == "--":
            return link(argv[1], argv[2], argv[3], argv[5:])
        elif len(argv) in (5, 6) and argv[0] == "image":
            image(argv[1], argv[2], argv[3], argv[5] if len(argv) == 6 else None, argv[4])
        elif len(argv) in (3, 4) and argv[0] == "loader" and argv[3:] in ([], ["inplace"]):
            loader(argv[1], argv[2], *argv[3:])
        elif len(argv) == 2 and argv[0] == "srchash":
            print("0x%08x" % src_hash(argv[1]))
        elif len(argv) >= 5 and argv[0] == "subset":
            subset(argv[1], argv[2], argv[3], argv[4], argv[5:])
        elif len(argv) == 3 and argv[0] == "boot":
            behs, progs = read_manifest(argv[1])
            print(boot_of(behs, progs, argv[2]))
        else:
            sys.stderr.write(__doc__)
            return 2
    except Fail as e:
        sys.stderr.write("%s\n" % e)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
