// tb_am_event_queue — self-checking bench for rtl/am_event_queue.v.
// Directed: empty/full, wrap-around, staged entries invisible until commit,
// atomic multi-entry commit, abandoned staging leaves no trace, high-water,
// the header read is always the head's: after a pop, the next entry's.
// Random: staging/commit/abandon/pop against a behavioral FIFO model.
`timescale 1ns/1ps
`default_nettype none
module tb_am_event_queue;
  localparam QAW = 4, MW = 8, MIW = 3, HW = 27, DEPTH = (1<<QAW)-1;
  reg clk = 0, rst_n = 0;
  always #5 clk = ~clk;
  reg wr_we = 0, hw_we = 0, commit = 0, pop = 0;
  reg [QAW-1:0] wr_off = 0, hw_off = 0, commit_n = 0;
  reg [MIW-1:0] wr_idx = 0, rd_idx = 0;
  reg [31:0] wr_data = 0;
  reg [HW-1:0] hw_data = 0;
  wire [HW-1:0] hdr;
  wire [31:0] rd_data;
  wire [QAW-1:0] count, hwm, cur;
  wire empty, full;
  wire [32*MW-1:0] trw;
  am_event_queue #(.QAW(QAW), .MSG_WORDS(MW), .HDR_W(HW), .TRACE(1)) dut (
    .clk_i(clk), .rst_ni(rst_n), .wr_we_i(wr_we), .wr_off_i(wr_off), .wr_idx_i(wr_idx),
    .wr_data_i(wr_data), .hw_we_i(hw_we), .hw_off_i(hw_off), .hw_data_i(hw_data),
    .commit_i(commit), .commit_n_i(commit_n), .pop_i(pop), .hdr_o(hdr), .rd_idx_i(rd_idx),
    .rd_data_o(rd_data), .count_o(count), .empty_o(empty), .full_o(full), .hwm_o(hwm),
    .cur_o(cur), .tr_words_o(trw));

  // model: events numbered forever; m_hdr/m_w indexed by number mod 4096
  reg [HW-1:0] m_hdr [0:4095];
  reg [31:0]   m_w   [0:4095*8+7];
  integer m_head = 0, m_tail = 0, m_hwm = 0, errors = 0, staged = 0, seed = 1, i, j, it;
  integer cycles0;

  task chk(input cond, input [8*48-1:0] what);
    begin if (!cond) begin errors = errors + 1; $display("FAIL: %0s at %0t", what, $time); end end
  endtask

  // stage one event at offset 'staged' (words written before header, like the unit)
  task stage(input integer n);
    integer k;
    begin
      for (k = 0; k < MW; k = k + 1) begin
        @(negedge clk); wr_we = 1; wr_off = staged; wr_idx = k; wr_data = $random(seed);
        m_w[((m_tail+staged)%4096)*8+k] = wr_data;
      end
      @(negedge clk); wr_we = 0; hw_we = 1; hw_off = staged; hw_data = {$random(seed)} % (1<<(HW-4)) * 16 + n;
      m_hdr[(m_tail+staged)%4096] = hw_data;
      @(negedge clk); hw_we = 0;
      staged = staged + 1;
    end
  endtask
  task do_commit;
    begin
      @(negedge clk); commit = 1; commit_n = staged;
      @(negedge clk); commit = 0;
      m_tail = m_tail + staged; staged = 0;
      if (m_tail - m_head > m_hwm) m_hwm = m_tail - m_head;
    end
  endtask
  task do_pop_check;
    integer k;
    begin
      @(negedge clk); pop = 1;
      chk(hdr == m_hdr[m_head%4096], "head header");
      @(negedge clk); pop = 0;
      @(negedge clk);
      if (m_tail > m_head + 1) chk(hdr == m_hdr[(m_head+1)%4096], "the next head's header after a pop");
      for (k = 0; k < MW; k = k + 1) begin
        rd_idx = k; @(negedge clk);
        chk(rd_data == m_w[(m_head%4096)*8+k], "current entry word");
        chk(trw[32*k +: 32] == m_w[(m_head%4096)*8+k], "trace word");
      end
      m_head = m_head + 1;
    end
  endtask
  task chk_counts;
    begin
      chk(count == m_tail - m_head, "count");
      chk(empty == (m_tail == m_head), "empty");
      chk(full == (m_tail - m_head == DEPTH), "full");
      chk(hwm == m_hwm, "hwm");
    end
  endtask

  initial begin
    if (!$value$plusargs("seed=%d", seed)) seed = 1;
    repeat (3) @(negedge clk); rst_n = 1;
    @(negedge clk); chk_counts;
    // 1. staged entries are invisible; abandon leaves no trace
    stage(3); stage(1); @(negedge clk); chk(empty && count == 0, "staged invisible");
    staged = 0; @(negedge clk); chk_counts;
    // 2. atomic multi-entry commit
    stage(2); stage(5); stage(0); do_commit; @(negedge clk); chk(count == 3, "commit 3"); chk_counts;
    // 3. fill to full (DEPTH queued), wrap around
    while (m_tail - m_head + staged < DEPTH) stage(4); // staged beyond committed tail
    @(negedge clk); chk(count == 3, "still 3 before commit");
    do_commit; @(negedge clk); chk(full, "full"); chk_counts;
    for (it = 0; it < DEPTH; it = it + 1) begin
      do_pop_check;
      // after the first pop, refill one to keep the pointers wrapping
      if (it < 5) begin stage(it); do_commit; end
      @(negedge clk); chk_counts;
    end
    while (m_head != m_tail) do_pop_check;
    @(negedge clk); chk(empty, "empty after drain"); chk_counts;
    // 4. random
    for (it = 0; it < 3000; it = it + 1) begin
      j = {$random(seed)} % 8;
      if (j < 3 && (m_tail - m_head + staged) < DEPTH) stage({$random(seed)} % 9);
      else if (j == 3) do_commit;
      else if (j == 4) staged = 0;            // abort: abandon staging
      else if (j >= 5 && staged == 0 && m_head != m_tail) do_pop_check;
      @(negedge clk); chk_counts;
      if (errors > 10) it = 100000;
    end
    if (errors == 0) $display("PASS tb_am_event_queue (events through=%0d, hwm=%0d)", m_head, m_hwm);
    else $display("FAIL tb_am_event_queue (%0d errors)", errors);
    if (errors != 0) $fatal(1);
    $finish;
  end
endmodule
