#!/usr/bin/env python3
"""update_doc.py REPORT DOC -- paste the tables of the latest bench report
(build/bench/report.md, written by `make bench`) into DOC
(docs/performance.md) between the lines
    <!-- bench-report:begin -->  and  <!-- bench-report:end -->
with headings demoted one level. `make bench-doc` runs it."""
import sys

BEGIN, END = "<!-- bench-report:begin -->", "<!-- bench-report:end -->"


def main():
    report, doc = sys.argv[1], sys.argv[2]
    lines = open(report).read().splitlines()
    body = []
    for line in lines[1:]:                      # drop the report's title
        if line.startswith("## Plots"):
            break
        if line.startswith("## Hardware"):      # the doc has its own section
            break
        if "docs/performance.md" in line:       # the doc is that page
            continue
        body.append("#" + line if line.startswith("#") else line)
    text = open(doc).read()
    i, j = text.find(BEGIN), text.find(END)
    if i < 0 or j < i:
        sys.exit(f"update_doc: markers {BEGIN} / {END} not found in {doc}")
    new = text[: i + len(BEGIN)] + "\n" + "\n".join(body).strip("\n") + "\n" + text[j:]
    open(doc, "w").write(new)
    print(f"update_doc: {doc} now shows the tables of {report}")


if __name__ == "__main__":
    main()
