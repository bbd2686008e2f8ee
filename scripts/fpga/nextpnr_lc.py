# nextpnr_lc.py -- nextpnr-ice40 --pre-pack script: the logic cells that
# scripts/fpga/ice40_opt.py packed itself (ICESTORM_LC, its fill pass) get their
# unused ports unconnected.
#
# A yosys JSON netlist cannot leave a cell's port unconnected: ice40_opt
# writes "x" there, and nextpnr's reader makes each "x" a net that nothing
# drives. On a carry-in that net would cost a feed-in cell (nextpnr feeds
# any carry-in net into the chain from the fabric), the cell the fill pass
# saved. So every ICESTORM_LC input (CIN, CLK, CEN, SR) on a net nothing
# drives and nothing else reads, and every output (LO) on a net nothing
# reads, is unconnected here, before packing. yosys' cell model reads none
# of them in such a cell (CIN_CONST = 1, DFF_ENABLE = 0), so what runs is
# what `make postsynth` simulated.
#
# Runs inside nextpnr (its Python API: ctx); a netlist without ICESTORM_LC
# cells is left as it is.
unconnected = 0
for name, cell in ctx.cells:
    if cell.type != "ICESTORM_LC":
        continue
    for port in ("CIN", "CLK", "CEN", "SR", "LO"):
        if port not in cell.ports or cell.ports[port].net is None:
            continue
        net = cell.ports[port].net
        if port == "LO":
            dangling = len(net.users) == 0
        else:
            dangling = net.driver.cell is None and len(net.users) == 1
        if dangling:
            ctx.disconnectPort(name, port)
            unconnected += 1
print(f"nextpnr_lc.py: {unconnected} unused ports of the netlist's own logic cells unconnected")
