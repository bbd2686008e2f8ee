#!/usr/bin/env python3
"""picorv32_gen.py -- FuseSoC generator (actormachine.core's picorv32_gen): a
core holding PicoRV32's picorv32.v, from the pinned PyPI package
pythondata-cpu-picorv32 (scripts/requirements.txt), so that the SoC's core
needs no path into a venv (docs/fusesoc.md).

FuseSoC runs it as `python3 picorv32_gen.py INPUT.yml` in an empty
directory; it writes picorv32.v and a .core named INPUT's vlnv there.
Parameter picorv32_v: another picorv32.v to use instead of the package's.
When the python3 that runs it lacks PyYAML or the package, it runs again
under the project's .venv (make deps).
"""
import os
import shutil
import sys

VENV_PY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".venv", "bin", "python")

try:
    import yaml
    try:
        import pythondata_cpu_picorv32
    except ImportError:
        pythondata_cpu_picorv32 = None
except ImportError:
    yaml = None


def main():
    with open(sys.argv[1]) as f:
        cfg = yaml.safe_load(f)
    params = cfg.get("parameters") or {}
    src = params.get("picorv32_v")
    if not src:
        if pythondata_cpu_picorv32 is None:
            sys.exit("picorv32_gen: pythondata_cpu_picorv32 is not installed (make deps), "
                     "and no picorv32_v parameter names a picorv32.v")
        src = os.path.join(pythondata_cpu_picorv32.data_location, "picorv32.v")
    if not os.path.isfile(src):
        sys.exit("picorv32_gen: no " + src)
    shutil.copyfile(src, "picorv32.v")
    name = cfg["vlnv"]
    with open(name.replace(":", "_") + ".core", "w") as f:
        f.write("CAPI=2:\n"
                "# written by actormachine's scripts/fusesoc/picorv32_gen.py from\n"
                "# " + src + "\n"
                "name: " + name + "\n"
                "description: PicoRV32 (pythondata-cpu-picorv32)\n"
                "filesets:\n"
                "  rtl:\n"
                "    files: [picorv32.v]\n"
                "    file_type: verilogSource\n"
                "targets:\n"
                "  default:\n"
                "    filesets: [rtl]\n")


if __name__ == "__main__":
    need_venv = yaml is None or (pythondata_cpu_picorv32 is None and "picorv32_v" not in open(sys.argv[1]).read())
    if need_venv and os.path.exists(VENV_PY) and not os.environ.get("AM_PICORV32_GEN_REEXEC"):
        os.environ["AM_PICORV32_GEN_REEXEC"] = "1"
        os.execv(VENV_PY, [VENV_PY, os.path.abspath(__file__)] + sys.argv[1:])
    if yaml is None:
        sys.exit("picorv32_gen: PyYAML is not installed (make deps installs it with fusesoc into .venv)")
    main()
