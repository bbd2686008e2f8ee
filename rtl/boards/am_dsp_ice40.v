// am_dsp_ice40 — the iCEBreaker's am_reg2x16 and am_down_counter: registers
// and a counter held in an iCE40 UP5K SB_MAC16 instead of flip-flops.
//
// The UP5K has eight DSP blocks the SoC does not multiply with (RV32I on the
// iCEBreaker), and an iCE40 logic cell holds one flip-flop. A register loaded
// straight from the bus (its input is the bus's write data, shared by many
// registers) takes a logic cell of its own for every bit; a counter takes a
// flip-flop, a LUT and a carry per bit. An SB_MAC16's two 16-bit output
// registers ("accumulators") can hold either instead, in no logic cell:
//
//   am_reg2x16       two 16-bit registers with their own enables and reset
//                    to a constant: the accumulator loads its D/C input
//                    (OLOAD = 1) unless held (OHOLD = !enable); the output
//                    is the register itself (OUTPUT_SELECT = 1)
//   am_down_counter  a W-bit (<= 32) down counter with load: both halves
//                    chained as one 32-bit accumulator that subtracts the
//                    constant 1 (B input) from itself, or loads d_i
//
// Each has the name and ports of the generic module it replaces
// (rtl/am_reg2x16.v, rtl/am_down_counter.v: flip-flops), and the iCEBreaker's
// file list takes this file instead of those two (fpga.mk: icebreaker_RTL,
// icebreaker_RTL_OUT), so the actor unit's RTL is the same on every board.
// Checked by the actor unit's bench run with this file on yosys' SB_MAC16
// model (make rtl-test), and by the post-synthesis simulation of the whole
// iCEBreaker netlist (make postsynth).
//
// Timing and reset (the same values as the flip-flops at every clock edge
// from the second cycle of a reset on): the output registers' reset
// (ORSTTOP/ORSTBOT) is asynchronous, but rst_ni is itself a register (the
// board's reset synchronizer), so the register holds its reset value from
// the first edge that sees rst_ni low to the first that sees it high, as a
// synchronous reset would. A register's reset value other than 0 is stored
// XORed with it (the accumulator resets to 0); a counter whose reset value
// is not 0 loads it while rst_ni is low instead (a count cannot be stored
// XORed).
`default_nettype none

module am_reg2x16 #(
  parameter [15:0] HI_RESET = 16'd0,
  parameter [15:0] LO_RESET = 16'd0
) (
  input  wire        clk_i,
  input  wire        rst_ni,
  input  wire        hi_en_i,
  input  wire [15:0] hi_d_i,
  output wire [15:0] hi_q_o,
  input  wire        lo_en_i,
  input  wire [15:0] lo_d_i,
  output wire [15:0] lo_q_o
);
  wire [31:0] o;
  wire        co, acc_co, sign_out;   // carry and sign outputs: unused
  SB_MAC16 #(
    .C_REG(1'b0), .A_REG(1'b0), .B_REG(1'b0), .D_REG(1'b0),
    .TOPOUTPUT_SELECT(2'd1), .BOTOUTPUT_SELECT(2'd1),
    .TOPADDSUB_LOWERINPUT(2'd0), .TOPADDSUB_UPPERINPUT(1'b1), .TOPADDSUB_CARRYSELECT(2'd0),
    .BOTADDSUB_LOWERINPUT(2'd0), .BOTADDSUB_UPPERINPUT(1'b1), .BOTADDSUB_CARRYSELECT(2'd0),
    .MODE_8x8(1'b1)
  ) dsp (
    .CLK(clk_i), .CE(1'b1),
    .C(hi_d_i ^ HI_RESET), .A(16'd0), .B(16'd0), .D(lo_d_i ^ LO_RESET),
    .AHOLD(1'b1), .BHOLD(1'b1), .CHOLD(1'b1), .DHOLD(1'b1),
    .IRSTTOP(1'b0), .IRSTBOT(1'b0), .ORSTTOP(!rst_ni), .ORSTBOT(!rst_ni),
    .OLOADTOP(1'b1), .OLOADBOT(1'b1), .ADDSUBTOP(1'b0), .ADDSUBBOT(1'b0),
    .OHOLDTOP(!hi_en_i), .OHOLDBOT(!lo_en_i),
    .CI(1'b0), .ACCUMCI(1'b0), .SIGNEXTIN(1'b0),
    .O(o), .CO(co), .ACCUMCO(acc_co), .SIGNEXTOUT(sign_out)
  );
  wire unused_outs = ^{co, acc_co, sign_out};
  assign hi_q_o = o[31:16] ^ HI_RESET;
  assign lo_q_o = o[15:0] ^ LO_RESET;
endmodule

module am_down_counter #(
  parameter integer W     = 32,               // 1..32
  parameter [W-1:0] RESET = {W{1'b0}}
) (
  input  wire         clk_i,
  input  wire         rst_ni,
  input  wire         load_i,   // q <= d_i (wins over dec_i)
  input  wire         dec_i,    // q <= q - 1 (modulo 2^W)
  input  wire [W-1:0] d_i,
  output wire [W-1:0] q_o
);
  // reset to 0: the output registers' reset; to another value: a load
  localparam [0:0] RST_LOAD = (RESET != {W{1'b0}});
  wire        load = load_i || (RST_LOAD && !rst_ni);
  wire [31:0] d    = {{(32 - W){1'b0}}, (RST_LOAD && !rst_ni) ? RESET : d_i};
  wire        orst = !RST_LOAD && !rst_ni;
  wire [31:0] o;
  wire        co, acc_co, sign_out;   // carry and sign outputs: unused
  // bottom: S <= load ? D : S - B (B = 1); top: Q <= load ? C : Q - A - borrow,
  // A = 0, the borrow being the bottom's carry out (CARRYSELECT 2: a
  // subtraction's carry out of the bottom is 1 exactly when it borrows)
  SB_MAC16 #(
    .C_REG(1'b0), .A_REG(1'b0), .B_REG(1'b0), .D_REG(1'b0),
    .TOPOUTPUT_SELECT(2'd1), .BOTOUTPUT_SELECT(2'd1),
    .TOPADDSUB_LOWERINPUT(2'd0), .TOPADDSUB_UPPERINPUT(1'b0), .TOPADDSUB_CARRYSELECT(2'd2),
    .BOTADDSUB_LOWERINPUT(2'd0), .BOTADDSUB_UPPERINPUT(1'b0), .BOTADDSUB_CARRYSELECT(2'd0),
    .MODE_8x8(1'b1)
  ) dsp (
    .CLK(clk_i), .CE(1'b1),
    .C(d[31:16]), .A(16'd0), .B(16'd1), .D(d[15:0]),
    .AHOLD(1'b1), .BHOLD(1'b1), .CHOLD(1'b1), .DHOLD(1'b1),
    .IRSTTOP(1'b0), .IRSTBOT(1'b0), .ORSTTOP(orst), .ORSTBOT(orst),
    .OLOADTOP(load), .OLOADBOT(load), .ADDSUBTOP(1'b1), .ADDSUBBOT(1'b1),
    .OHOLDTOP(!(load || dec_i)), .OHOLDBOT(!(load || dec_i)),
    .CI(1'b0), .ACCUMCI(1'b0), .SIGNEXTIN(1'b0),
    .O(o), .CO(co), .ACCUMCO(acc_co), .SIGNEXTOUT(sign_out)
  );
  assign q_o = o[W-1:0];
  wire unused_outs = ^{o, co, acc_co, sign_out};
endmodule

`default_nettype wire
