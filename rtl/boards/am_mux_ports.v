// am_mux_ports — the ULX3S's am_unit_rdata, am_unit_hdr and am_soc_rdata:
// the actor unit's read data and its queue-header port, and the SoC's read
// data, through multiplexers.
//
// Each has the name and ports of the generic module it replaces
// (rtl/am_unit_rdata.v, rtl/am_unit_hdr.v, rtl/am_soc_rdata.v), and the
// ULX3S's file list takes this file instead of those three (fpga.mk:
// ulx3s_RTL, ulx3s_RTL_OUT). The generic ones save iCE40 logic cells (74 for
// the read data, 64 for the header port on the iCEBreaker); with them the
// ECP5's placement missed 60 MHz on 3 of 32 seeds (58.84 MHz at worst), with
// these it meets it on every seed -- the ECP5's LUTs are not scarce, its
// timing is. The behavior is the same, cycle for cycle, except that the
// unit's read data is not 0 outside a read's completing cycle (which is why
// the SoC's read data selects it here). Checked by the actor unit's bench
// run with this file (make rtl-test), make lint / sim-lint, and make
// board-sim BOARD=ulx3s.
`default_nettype none
`include "am_defs.vh"

// the read data: a register's value in rdata_q, and two registers select
// it or a message / state word (0 beyond the length)
module am_unit_rdata (
  input  wire        clk_i,
  input  wire        rd_acc_i,
  input  wire [7:0]  a_i,
  input  wire        open_i,
  input  wire [3:0]  len_i,
  input  wire [3:0]  slen_i,
  input  wire [31:0] reg_i,
  input  wire [31:0] q_rdata_i,
  input  wire [31:0] st_rdata_i,
  output wire [31:0] rdata_o
);
  reg [31:0] rdata_q;
  reg [1:0]  rsel_q;    // 0 register, 1 message word, 2 state word
  reg        rmask_q;   // word index below length
  // loaded in every cycle, not only when a read starts: the read data is
  // used in the cycle a read completes, and rd_acc_i (late: the decode of
  // the core's look-ahead address) as the enable of 35 flip-flops was the
  // ECP5's critical path
  wire unused_rd_acc = rd_acc_i;
  always @(posedge clk_i) begin
    rdata_q <= reg_i;
    rsel_q  <= `AM_AU_MSG_AT(a_i) ? 2'd1 : `AM_AU_STATE_AT(a_i) ? 2'd2 : 2'd0;
    rmask_q <= open_i && (`AM_AU_MSG_AT(a_i) ? ({1'b0, a_i[2:0]} < len_i)
                                              : ({1'b0, a_i[2:0]} < slen_i));
  end
  assign rdata_o = (rsel_q == 2'd1) ? (rmask_q ? q_rdata_i : 32'd0) :
                   (rsel_q == 2'd2) ? (rmask_q ? st_rdata_i : 32'd0) : rdata_q;
endmodule

// the header port: INJECT writes its header in its second cycle, from
// registers
module am_unit_hdr #(
  parameter integer QUEUE_AW = 6,
  parameter integer SLOT_W   = 7,
  parameter integer HDR_W    = `AM_HDR_W
) (
  input  wire                send_go_i,
  input  wire                q_room_i,
  input  wire                inject_go_i,
  input  wire                t_inject_i,
  input  wire [QUEUE_AW-1:0] nsends_i,
  input  wire [15:0]         gen_i,
  input  wire [SLOT_W-1:0]   slot_i,
  input  wire [3:0]          n_i,
  input  wire [15:0]         p_gen_i,
  input  wire [SLOT_W-1:0]   p_slot_i,
  input  wire [3:0]          p_n_i,
  output wire                we_o,
  output wire [QUEUE_AW-1:0] off_o,
  output reg  [HDR_W-1:0]    data_o
);
  assign we_o   = (send_go_i && q_room_i) || t_inject_i;
  assign off_o  = t_inject_i ? {QUEUE_AW{1'b0}} : nsends_i;
  always @* begin
    data_o = {HDR_W{1'b0}};
    data_o[`AM_HDR_GEN_LSB +: `AM_HDR_GEN_W]   = t_inject_i ? p_gen_i : gen_i;
    data_o[`AM_HDR_SLOT_LSB +: `AM_HDR_SLOT_W] = t_inject_i ? p_slot_i : slot_i;
    data_o[`AM_HDR_LEN_LSB +: `AM_HDR_LEN_W]   = t_inject_i ? p_n_i : n_i;
  end
  wire unused_first_cycle = inject_go_i;   // (the generic module's)
endmodule

// the SoC's read data: the selected slave's, the unit's too
module am_soc_rdata #(
  parameter integer TRACE = 0
) (
  input  wire        clk_i,
  input  wire        rst_ni,
  input  wire        sel_ram_i,
  input  wire        sel_dp_i,
  input  wire        sel_au_i,
  input  wire        sel_urt_i,
  input  wire        sel_sys_i,
  input  wire        au_read_i,
  input  wire [31:0] addr_i,
  input  wire [31:0] ram_rdata_i,
  input  wire [31:0] dp_rdata_i,
  input  wire [31:0] au_rdata_i,
  input  wire [31:0] urt_rdata_i,
  input  wire [31:0] sys_rdata_i,
  output reg  [31:0] rdata_o
);
  // the selects exclude each other: an AND-OR, no priority chain, so each
  // source is two LUT levels from the core (the state RAM's word, through
  // the unit's selection and a chain here, was the ECP5's critical path)
  always @(*) begin
    rdata_o = ({32{sel_ram_i}} & ram_rdata_i) | ({32{sel_dp_i}} & dp_rdata_i) |
              ({32{sel_au_i}} & au_rdata_i) | ({32{sel_urt_i}} & urt_rdata_i) |
              ({32{sel_sys_i}} & sys_rdata_i);
  end
  // (no check: the unit's read data is not 0 outside its reads here)
  wire unused_check_only = ^{clk_i, rst_ni, au_read_i, addr_i, TRACE[0]};
endmodule

`default_nettype wire
