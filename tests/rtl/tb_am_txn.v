// tb_am_txn — self-checking bench for rtl/am_txn.v: check order per
// operation, first fault wins, bounds (MAX_SENDS / MAX_CREATES), last
// BECOME wins, clear, bus operations only with the strobe, QUEUE_FULL with
// a commit (a COMMIT write or the dispatch point: with or without it), the operation
// recorded with the first fault (op_o). Random operation
// streams against a behavioral model.
`timescale 1ns/1ps
`default_nettype none
module tb_am_txn;
  localparam MW = 8, SWD = 8, MS = 8, MC = 4, SLW = 7, BW = 8;
  reg clk = 0, rst_n = 0;
  always #5 clk = ~clk;
  reg clear = 0, send = 0, ref_chk = 0, ref_ok = 0, create = 0, cbeh_ok = 0, alloc_ok = 0;
  reg become = 0, bbeh_ok = 0, fail = 0, fail_fh = 0, qfull = 0, stb = 0, afail = 0, commit = 0;
  reg [3:0] send_n = 0, create_n = 0, become_n = 0, fail_cause = 0;
  reg [4:0] afail_cause = 0;   // the unit's own aborts: WATCHDOG (15), STACK (16)
  reg [SLW-1:0] cslot = 0; reg [BW-1:0] bbeh = 0;
  reg [1:0] cre_idx = 0;
  wire send_go, create_go, become_go, become_o;
  wire [4:0] cause; wire [3:0] become_n_o; wire [2:0] op_q; wire [3:0] nsends; wire [2:0] ncreates;
  wire [SLW-1:0] cre_slot; wire [BW-1:0] become_beh;
  am_txn #(.MSG_WORDS(MW), .STATE_WORDS(SWD), .MAX_SENDS(MS), .MAX_CREATES(MC), .SLOT_W(SLW), .BEH_W(BW)) dut (
    .clk_i(clk), .rst_ni(rst_n), .clear_i(clear), .stb_i(stb), .send_i(send), .send_n_i(send_n), .send_go_o(send_go),
    .ref_chk_i(ref_chk), .ref_ok_i(ref_ok), .create_i(create), .create_n_i(create_n),
    .create_beh_ok_i(cbeh_ok), .alloc_ok_i(alloc_ok), .create_slot_i(cslot), .create_go_o(create_go),
    .become_i(become), .become_n_i(become_n), .become_beh_ok_i(bbeh_ok), .become_beh_i(bbeh),
    .become_go_o(become_go), .bfail_i(fail), .bfail_cause_i(fail_cause), .bfail_fh_i(fail_fh),
    .afail_i(afail), .afail_cause_i(afail_cause), .commit_i(commit), .qfull_i(qfull),
    .cause_o(cause), .op_o(op_q), .nsends_o(nsends), .ncreates_o(ncreates), .cre_idx_i(cre_idx), .cre_slot_o(cre_slot),
    .become_o(become_o), .become_beh_o(become_beh), .become_n_o(become_n_o));

  integer errors = 0, seed = 1, it, op, k;
  integer m_op = 0, m_cause = 0, m_ns = 0, m_nc = 0, m_bec = 0, m_bbeh = 0, m_bn = 0;
  integer m_slot [0:3];
  task chk(input cond, input [8*40-1:0] what);
    begin if (!cond) begin errors = errors + 1; $display("FAIL: %0s at %0t (cause %0d model %0d)", what, $time, cause, m_cause); end end
  endtask
  task mf(input integer c, input integer o); begin if (m_cause == 0) begin m_cause = c; m_op = o; end end endtask
  initial begin
    if (!$value$plusargs("seed=%d", seed)) seed = 1;
    repeat (2) @(negedge clk); rst_n = 1;
    for (it = 0; it < 20000; it = it + 1) begin
      @(negedge clk);
      send = 0; ref_chk = 0; create = 0; become = 0; fail = 0; qfull = 0; clear = 0;
      afail = 0; stb = 1;
      op = {$random(seed)} % 16;
      if (op < 4) begin            // SEND: length, count, then (next cycle) reference
        send = 1; send_n = ({$random(seed)} % 8 == 0) ? 9 + {$random(seed)} % 7 : {$random(seed)} % 9;
        #1; if (m_cause == 0) begin
          if (send_n > MW) mf(4, 1); else if (m_ns == MS) mf(6, 1);
          else begin chk(send_go, "send_go"); m_ns = m_ns + 1; end
        end else chk(!send_go, "no send after fault");
        @(negedge clk); send = 0; stb = 0;
        ref_chk = 1; ref_ok = ({$random(seed)} % 10 != 0);
        if (!ref_ok && m_cause == 0) mf(2, 1);
      end else if (op < 7) begin   // CREATE
        create = 1; create_n = {$random(seed)} % 11; cbeh_ok = ({$random(seed)} % 8 != 0);
        alloc_ok = ({$random(seed)} % 10 != 0); cslot = $random(seed);
        #1; if (m_cause == 0) begin
          if (!cbeh_ok) mf(3, 2); else if (create_n > SWD) mf(5, 2); else if (m_nc == MC) mf(7, 2);
          else if (!alloc_ok) mf(8, 2); else begin chk(create_go, "create_go"); m_slot[m_nc] = cslot; m_nc = m_nc + 1; end
        end else chk(!create_go, "no create after fault");
      end else if (op < 10) begin  // BECOME (its words: the table's buffer, tb_am_actor_table)
        become = 1; become_n = {$random(seed)} % 11; bbeh_ok = ({$random(seed)} % 8 != 0); bbeh = $random(seed);
        #1; if (m_cause == 0) begin
          if (!bbeh_ok) mf(3, 3); else if (become_n > SWD) mf(5, 3);
          else begin chk(become_go, "become_go"); m_bec = 1; m_bbeh = bbeh; m_bn = become_n; end
        end
      end else if (op == 10) begin     // ABORT[c], or a refused SET_HANDLER (BAD_REF)
        fail = 1; fail_fh = $random(seed); fail_cause = fail_fh ? 2 : {$random(seed)} % 16;
        mf(fail_cause == 0 ? 1 : fail_cause, fail_fh ? 4 : 5);
      end
      else if (op == 11) begin     // a commit: QUEUE_FULL if the sends do not fit
        commit = 1; stb = $random(seed); qfull = $random(seed); if (qfull) mf(9, 6);
      end
      else if (op == 13) begin     // the unit's own abort (the watchdog): no strobe
        stb = 0; afail = 1; afail_cause = 1 + {$random(seed)} % 16; mf(afail_cause, 7);
      end else if (op == 14) begin // operations decoded but not strobed: no effect
        stb = 0; send = $random(seed); create = $random(seed); become = $random(seed);
        fail = $random(seed); qfull = $random(seed); send_n = {$random(seed)} % 16;
        create_n = {$random(seed)} % 16; become_n = {$random(seed)} % 16;
        cbeh_ok = $random(seed); alloc_ok = $random(seed); bbeh_ok = $random(seed);
        #1; chk(!send_go && !create_go && !become_go, "no go without the strobe");
      end
      else if (op == 12 && {$random(seed)} % 3 == 0) begin
        clear = 1; m_cause = 0; m_op = 0; m_ns = 0; m_nc = 0; m_bec = 0;
      end
      @(negedge clk);
      send = 0; ref_chk = 0; create = 0; become = 0; fail = 0; fail_fh = 0; qfull = 0; clear = 0; afail = 0;
      stb = 0; commit = 0;
      #1;
      chk(cause == m_cause, "cause");
      chk(op_q == m_op, "op");
      chk(nsends == m_ns && ncreates == m_nc, "counts");
      chk(become_o == m_bec, "become flag");
      if (m_bec) chk(become_beh == m_bbeh[BW-1:0] && become_n_o == m_bn, "last become wins");
      for (k = 0; k < m_nc; k = k + 1) begin cre_idx = k; #1; chk(cre_slot == m_slot[k], "created slot"); end
      if (errors > 10) it = 1 << 30;
    end
    if (errors == 0) $display("PASS tb_am_txn");
    else $display("FAIL tb_am_txn (%0d errors)", errors);
    if (errors != 0) $fatal(1);
    $finish;
  end
endmodule
