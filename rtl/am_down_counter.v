// am_down_counter — a W-bit down counter with a parallel load, in
// flip-flops.
//
// Owns: the count, nothing else.
//
// Promises:
// * At a clock edge: rst_ni low -> RESET; else load_i -> d_i; else dec_i ->
//   the count minus 1 (modulo 2^W); else it holds. q_o is the count itself.
// * W is 1..32.
// * A board may replace this file by its own module of the same name and
//   ports (fpga.mk's <board>_RTL / <board>_RTL_OUT): the iCEBreaker's,
//   rtl/boards/am_dsp_ice40.v, counts in a UP5K DSP block's accumulator,
//   with the same count at every clock edge from the second cycle of a
//   reset on.
`default_nettype none

module am_down_counter #(
  parameter integer   W     = 32,
  parameter [W-1:0]   RESET = {W{1'b0}}
) (
  input  wire         clk_i,
  input  wire         rst_ni,
  input  wire         load_i,   // wins over dec_i
  input  wire         dec_i,
  input  wire [W-1:0] d_i,
  output reg  [W-1:0] q_o
);
  always @(posedge clk_i) begin
    if (!rst_ni)     q_o <= RESET;
    else if (load_i) q_o <= d_i;
    else if (dec_i)  q_o <= q_o - 1'b1;
  end
endmodule

`default_nettype wire
