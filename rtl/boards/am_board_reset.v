// am_board_reset — power-on / button reset for the board tops.
//
// Owns: a 2-flop synchroniser of the (active-low) reset button and a counter.
// Promises: rst_no stays low while the clock is not locked or the button is
// pressed, and for CYCLES clock cycles after both are released; it rises
// synchronously. Relies on the FPGA's configuration-time register init (0).
`default_nettype none

module am_board_reset #(
  parameter integer CYCLES = 64
) (
  input  wire clk_i,
  input  wire lock_i,     // PLL locked (1 when there is no PLL)
  input  wire btn_ni,     // reset button, active low (1 when there is none)
  output wire rst_no
);
  reg [1:0]                     btn_q = 2'b00;
  reg [$clog2(CYCLES+1)-1:0]    cnt_q = 0;
  reg                           rst_nq = 1'b0;

  always @(posedge clk_i) begin
    btn_q <= {btn_q[0], btn_ni};
    if (!lock_i || !btn_q[1]) begin
      cnt_q  <= 0;
      rst_nq <= 1'b0;
    end else if (cnt_q != CYCLES[$clog2(CYCLES+1)-1:0]) begin
      cnt_q  <= cnt_q + 1'b1;
    end else begin
      rst_nq <= 1'b1;
    end
  end
  assign rst_no = rst_nq;
endmodule

`default_nettype wire
