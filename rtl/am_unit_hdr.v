// am_unit_hdr — what the bus writes into the queue's header port.
//
// Owns: nothing (combinational).
//
// Promises:
// * A SEND that can stage an entry writes its header one past the staged
//   sends (offset nsends_i past the tail), an INJECT one past the tail
//   (no transaction is open, nothing is staged: nsends_i is 0), both in the
//   cycle of the write, straight from the bus -- whether or not the check
//   that follows passes: only a commit makes the entry an event. (Written
//   from registers in the INJECT's second cycle instead, it takes a
//   25-bit multiplexer: 64 iCE40 LCs on the iCEBreaker.)
// * A header is {generation, slot, length}, as include/am_iface.def's
//   AM_IF_LAYOUT(HDR, ...) places them.
// * A board may replace this file by its own module of the same name and
//   ports (fpga.mk's <board>_RTL / <board>_RTL_OUT): the ULX3S's,
//   rtl/boards/am_mux_ports.v, writes INJECT's header in its second cycle,
//   from registers (t_inject_i, p_*_i).
`default_nettype none
`include "am_defs.vh"

module am_unit_hdr #(
  parameter integer QUEUE_AW = 6,
  parameter integer SLOT_W   = 7,
  parameter integer HDR_W    = `AM_HDR_W
) (
  input  wire                send_go_i,   // a SEND is accepted ...
  input  wire                q_room_i,    // ... and one more staged entry fits
  input  wire                inject_go_i, // an INJECT's first cycle, its arguments good
  input  wire                t_inject_i,  // ... its second cycle
  input  wire [QUEUE_AW-1:0] nsends_i,    // sends staged so far
  input  wire [15:0]         gen_i,       // the write's reference: generation,
  input  wire [SLOT_W-1:0]   slot_i,      // slot,
  input  wire [3:0]          n_i,         // and the word count of the address
  input  wire [15:0]         p_gen_i,     // ... the same, registered (second cycle)
  input  wire [SLOT_W-1:0]   p_slot_i,
  input  wire [3:0]          p_n_i,
  output wire                we_o,
  output wire [QUEUE_AW-1:0] off_o,
  output reg  [HDR_W-1:0]    data_o
);
  assign we_o   = (send_go_i && q_room_i) || inject_go_i;
  assign off_o  = nsends_i;
  always @* begin
    data_o = {HDR_W{1'b0}};
    data_o[`AM_HDR_GEN_LSB +: `AM_HDR_GEN_W]   = gen_i;
    data_o[`AM_HDR_SLOT_LSB +: `AM_HDR_SLOT_W] = slot_i;
    data_o[`AM_HDR_LEN_LSB +: `AM_HDR_LEN_W]   = n_i;
  end
  wire unused_second_cycle = ^{t_inject_i, p_gen_i, p_slot_i, p_n_i};   // (the ULX3S's)
endmodule

`default_nettype wire
