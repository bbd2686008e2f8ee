// am_ram (iCE40 variant) — the SoC's RAM as block RAM banks (+ SPRAM on UP5K).
//
// A drop-in replacement for rtl/am_ram.v on the iCE40 boards: the same module
// name, parameters, ports and timing (an access happens in the cycle en_i is
// high, its read word is on rdata_o from the next cycle on; byte enables
// honoured), compiled *instead of* rtl/am_ram.v
// by fpga.mk. rtl/am_soc.v is unchanged.
//
// Without AM_RAM_SPRAM (HX8K): all WORDS in block RAM banks (BRAM_WORDS must
// equal WORDS). With AM_RAM_SPRAM (UP5K, iCEBreaker), WORDS x 32 bits are
// split by word address:
//   [0, BRAM_WORDS)      block RAM, initialised from INIT_FILE (the firmware
//                        image: code, read-only data, .data) -- the only part
//                        a bitstream can initialise, and the part icebram
//                        patches (make ice40-fw)
//   [BRAM_WORDS, WORDS)  two SB_SPRAM256KA side by side (16K x 32 = 64 KiB),
//                        uninitialised: .bss beyond the image, the heap-free
//                        firmware's stack (it grows down from WORDS*4)
// The SPRAM half keeps the memory map of the simulation (RAM_BYTES = 64 KiB,
// stack at the top); only the *image* must fit in BRAM_WORDS words (fpga.mk
// checks it). UP5K SPRAM cannot be initialised by the bitstream, hence the
// split.
//
// With AM_RAM_SPRAM, WORDS must be 16384 (the SPRAM half is exactly 16K
// words; fpga.mk sets it).
// BRAM_WORDS comes from the macro AM_RAM_BRAM_WORDS (yosys read_verilog -D,
// iverilog -D), because rtl/am_soc.v only passes WORDS and INIT_FILE.
`default_nettype none

`ifndef AM_RAM_BRAM_WORDS
`define AM_RAM_BRAM_WORDS 2048
`endif

module am_ram #(
  parameter integer WORDS      = 16384,      // 64 KiB
  parameter         INIT_FILE  = "",
  parameter integer BRAM_WORDS = `AM_RAM_BRAM_WORDS
) (
  input  wire                     clk_i,
  input  wire                     rst_ni,
  input  wire                     en_i,
  input  wire [$clog2(WORDS)-1:0] addr_i,    // word address
  input  wire [31:0]              wdata_i,
  input  wire [3:0]               wstrb_i,
  output wire [31:0]              rdata_o
);
  localparam integer AW  = $clog2(WORDS);

  wire go = en_i;
  wire unused_rst = rst_ni;

  // ---- block RAM part (inferred; initialised) ---------------------------------
  // BRAM_WORDS is a multiple of 256 (icebram works on 256-word slices) and is
  // built as one bank per set bit (largest first: e.g. 1792 = 1024 + 512 +
  // 256; the boards use one bank of 2048 words, the cheapest read path),
  // because a memory whose depth is not a power of two costs ~300 LUTs of
  // read multiplexers while power-of-two banks map onto whole BRAMs (1024x4,
  // 512x8, 256x16 modes) with no multiplexer inside a bank. Bank b (2^b words)
  // is initialised from "<INIT_FILE>.bNN", NN = b in two digits (fpga.mk
  // splits the image: scripts/fpga/split_hex.sh).
  localparam integer NB = 13;                 // banks of 2^0 .. 2^12 words
  wire [32*NB-1:0] bank_rd;
  wire [NB-1:0] bank_hit;
  genvar b;
  generate for (b = 0; b < NB; b = b + 1) begin : g_bank
    if ((BRAM_WORDS & (1 << b)) != 0) begin : g_on
      localparam integer BASE = BRAM_WORDS & ~((2 << b) - 1);
      localparam [7:0]   D1   = 8'd48 + b / 10;   // "<INIT_FILE>.bNN", NN = b
      localparam [7:0]   D0   = 8'd48 + b % 10;
      // no_rw_check: the SoC ignores rdata of a write, so a read of the word
      // being written needs no bypass (saves ~40 LUTs + 80 FFs per bank).
      (* no_rw_check *) reg [31:0] mem_q [0:(1 << b)-1];
      reg [31:0] rd_q;
      initial begin
        if (INIT_FILE != "") $readmemh({INIT_FILE, ".b", D1, D0}, mem_q);
      end
      wire [b-1:0] a = addr_i[b-1:0];
      assign bank_hit[b] = ({{(32-AW){1'b0}}, addr_i} >> b) == (BASE >> b);
      always @(posedge clk_i) begin
        if (go && bank_hit[b]) begin
          rd_q <= mem_q[a];
          if (wstrb_i[0]) mem_q[a][ 7: 0] <= wdata_i[ 7: 0];
          if (wstrb_i[1]) mem_q[a][15: 8] <= wdata_i[15: 8];
          if (wstrb_i[2]) mem_q[a][23:16] <= wdata_i[23:16];
          if (wstrb_i[3]) mem_q[a][31:24] <= wdata_i[31:24];
        end
      end
      assign bank_rd[32*b +: 32] = rd_q;
    end else begin : g_off
      assign bank_hit[b] = 1'b0;
      assign bank_rd[32*b +: 32] = 32'd0;
    end
  end endgenerate
  wire in_bram = |bank_hit;

`ifdef AM_RAM_SPRAM
  // ---- SPRAM part: 16K x 32 from two 16K x 16 SPRAMs -----------------------------
  // Addressed with the low 14 bits of the word address: words [BRAM_WORDS,
  // WORDS) land on SPRAM words [BRAM_WORDS, 16384); SPRAM words below
  // BRAM_WORDS are simply never used.
  wire        sp_cs = go && !in_bram;
  wire        sp_we = wstrb_i != 4'd0;
  wire [15:0] sp_lo, sp_hi;
  SB_SPRAM256KA spram_lo (
    .ADDRESS(addr_i[13:0]), .DATAIN(wdata_i[15:0]),
    .MASKWREN({wstrb_i[1], wstrb_i[1], wstrb_i[0], wstrb_i[0]}),
    .WREN(sp_we), .CHIPSELECT(sp_cs), .CLOCK(clk_i),
    .STANDBY(1'b0), .SLEEP(1'b0), .POWEROFF(1'b1), .DATAOUT(sp_lo));
  SB_SPRAM256KA spram_hi (
    .ADDRESS(addr_i[13:0]), .DATAIN(wdata_i[31:16]),
    .MASKWREN({wstrb_i[3], wstrb_i[3], wstrb_i[2], wstrb_i[2]}),
    .WREN(sp_we), .CHIPSELECT(sp_cs), .CLOCK(clk_i),
    .STANDBY(1'b0), .SLEEP(1'b0), .POWEROFF(1'b1), .DATAOUT(sp_hi));
`else
  // No SPRAM: every address is in a bank (the SoC never presents an address
  // >= WORDS to the RAM).
  wire [15:0] sp_lo = 16'd0, sp_hi = 16'd0;
  wire unused_in_bram = in_bram;
`endif

  // Which bank answered the access that completes now (one-hot; 0 = SPRAM).
  reg [NB-1:0] hit_q;
  always @(posedge clk_i) if (go) hit_q <= bank_hit;
  reg [31:0] rdata;
  integer i;
  always @(*) begin
    rdata = {sp_hi, sp_lo};
    for (i = 0; i < NB; i = i + 1)
      if (hit_q[i]) rdata = bank_rd[32*i +: 32];
  end
  assign rdata_o = rdata;
endmodule

`default_nettype wire
