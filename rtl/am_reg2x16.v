// am_reg2x16 — two 16-bit registers, each with its own enable and reset
// value, in flip-flops.
//
// Owns: the two registers, nothing else.
//
// Promises:
// * hi_q_o / lo_q_o take hi_d_i / lo_d_i at a clock edge where their enable
//   is high, HI_RESET / LO_RESET at one where rst_ni is low (the reset wins),
//   and hold otherwise; the outputs are the registers themselves.
// * A board may replace this file by its own module of the same name and
//   ports (fpga.mk's <board>_RTL / <board>_RTL_OUT): the iCEBreaker's,
//   rtl/boards/am_dsp_ice40.v, holds both registers in one UP5K DSP block,
//   with the same values at every clock edge from the second cycle of a
//   reset on. That is why callers pair two registers in one instance.
`default_nettype none

module am_reg2x16 #(
  parameter [15:0] HI_RESET = 16'd0,
  parameter [15:0] LO_RESET = 16'd0
) (
  input  wire        clk_i,
  input  wire        rst_ni,
  input  wire        hi_en_i,
  input  wire [15:0] hi_d_i,
  output reg  [15:0] hi_q_o,
  input  wire        lo_en_i,
  input  wire [15:0] lo_d_i,
  output reg  [15:0] lo_q_o
);
  always @(posedge clk_i) begin
    if (!rst_ni) begin
      hi_q_o <= HI_RESET;
      lo_q_o <= LO_RESET;
    end else begin
      if (hi_en_i) hi_q_o <= hi_d_i;
      if (lo_en_i) lo_q_o <= lo_d_i;
    end
  end
endmodule

`default_nettype wire
