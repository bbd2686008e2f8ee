// am_soc — the actor machine: PicoRV32 + RAM + actor unit + UART + SYS.
//
// Owns: the bus decoder and the SYS registers. Memory map (docs/architecture.md):
//   0x0000_0000  RAM (RAM_WORDS x 32; code, data, stack; firmware image)
//   0x000F_FFF8  the dispatch point, three words (rtl/am_unit_dp.v; instruction
//                fetches only, the others only after the first: see below)
//   0x2000_0000  UART (rtl/am_uart.v)
//   0x3000_0000  SYS: BOOT_BEH (R), HALT (W: exit code), RAM_BYTES (R),
//                REPORT (W: one word of the end-of-run report, to report_*_o),
//                BOOT_ARG (R: the boot message's word; 0 = an empty message),
//                GC_CONFIG (R: gc_cfg_i; SET: the firmware writes the unit's
//                    GC_LOW and GC_PERIOD from its fields at boot)
//                RESTART (R: why the core was last restarted, KIND, see
//                    below; until RESTART_PC is read, SEQ: the core's last
//                    fetch followed the one before it (+4), IN_RAM: it was
//                    in RAM)
//                RESTART_PC (R: the address of the core's last
//                    instruction fetch before the restart, kept until read;
//                    see "restart" below)
//                STACK_LIMIT (RW, write-once: the firmware's first
//                    non-zero write sets it until reset; see "stack guard")
//                STACK_TOP (RW, write-once, the same way: a program's
//                    behavior may not store at or above it; "privilege")
//                LINK (R: link_cfg_i, the host link's settings: ON, STOP,
//                    the UART divider; docs/link.md)
//                REBOOT (RW: see "reboot"); DISPATCH, DEVICES (RW: am_unit_dp.v)
//   0xFFFF_FC00  actor unit registers, the top of the address space
//                (docs/actor-unit.md)
//   (bases, offsets and fields: include/am_iface.def, here as am_defs.vh's
//   `AM_* macros; docs/architecture.md has the table)
//   anything else, and RAM addresses past its end: bus error -- the access
//   completes (reads return 0, writes are ignored) and the core is restarted.
// Traps without interrupts: PicoRV32 runs with ENABLE_IRQ=0 (its IRQ logic
// is ~240 iCE40 LCs) and stops (its trap output) on an illegal instruction,
// ebreak, ecall, or a misaligned access or jump target. The SoC then
// restarts it: holds its reset for one cycle -- the RAM, the unit and the
// UART keep their state -- and records why in RESTART: 0 power-on, 1 the
// core trapped (the firmware tells the kind from RESTART_PC, the core's last
// fetch, and the instruction before it), 2 a bus error, 3 the actor unit's
// watchdog. The core starts
// again at 0, where the firmware reads RESTART and, when it is not 0,
// aborts the transaction instead of booting (docs/firmware.md).
// Stack guard: once STACK_LIMIT is set, a store by the core to RAM below it
// -- the image and .bss, which behaviors never write -- is not performed: it
// completes as a bus error with RESTART.STACK set, and stack_hit pulses so
// the actor unit aborts the transaction with cause STACK. The stack grows
// down from the top of RAM towards STACK_LIMIT (the end of .bss, from the
// image header), so a stack overflow stops at its first store below it,
// before code or data change (docs/firmware.md). A frame larger than the
// RAM below it wraps below address 0 into the upper half of the address
// space, where nothing but the unit's 1 KiB window is mapped: a store there,
// outside the window, is stopped the same way (STACK, as in lockstep the
// reference runtime takes it), whatever STACK_LIMIT is.
// Privilege: the UART, SYS and the actor unit's firmware-only registers
// (FW/FRW in include/am_iface.def: CTRL, BEH_COUNT, WATCHDOG, FAULT_HANDLER,
// GC_LOW, GC_PERIOD, COMMIT, FREE, INJECT, SPAWN, UNPIN, COLLECT; and W2FW:
// ABORT[c] for c from 2 on, the traps' causes) are the firmware's. While a program's behavior runs -- from the dispatch point's
// answer with a behavior id past the built-in ones to the next answer or
// restart -- an access of them is a bus error (TRAP_BUS for the behavior's
// transaction), so no behavior can switch off the watchdog, stop the
// machine, halt it, read a reference it was not given (FAULT_HANDLER) or
// talk over the host link; and a store of it at or above STACK_TOP (the
// host link's state, which the firmware trusts) is the stack guard's. The
// built-in behaviors (the console, the link's ask proxy), the device
// routine and IDLE are the firmware's and keep the UART; their entries
// trust no register a behavior left (firmware/crt0.S, FW_ENTRY).
// Reboot (the link's loader, docs/link.md "Loading"): a write of A to
// SYS.REBOOT resets the core, the actor unit and the SYS registers --
// everything but the RAM and the UART, whose receive FIFO keeps what the
// host sent meanwhile for the next image's link service. With A != 0 the core then finds
// RESTART.REBOOT set and SYS.REBOOT = A (crt0.S jumps there: a copy
// routine outside the image, which moves a received image to 0); with
// A = 0, RESTART.LOADED set (kept until power-on): the image at 0 came over
// the link, and boots as at power-on. reboot_o pulses with each (the
// simulation switches its reference runtime).
// Promises: no access ever hangs the bus; during the restart cycle no slave
// sees an access.
`default_nettype none
`include "am_defs.vh"

module am_soc #(
  parameter integer RAM_WORDS   = `AM_DEFAULT_RAM_WORDS,
  parameter         FIRMWARE    = "",        // $readmemh image of the RAM
  parameter integer UART_DIV    = 104,
  parameter integer UART_DIV_RW = 1,         // 0: the UART's divider is fixed (FPGA boards)
  parameter [0:0]   ENABLE_MUL  = 1,
  parameter [0:0]   ENABLE_DIV  = 1,
  parameter integer TABLE_SLOTS = `AM_DEFAULT_TABLE_SLOTS,
  parameter integer QAW         = `AM_DEFAULT_QUEUE_AW,
  parameter integer TRACE       = 0,         // 1: drive the trace port (simulation)
  parameter integer STATS       = 1,         // 0: no statistics counters (small FPGA builds)
  parameter integer WD_W        = `AM_DEFAULT_WD_W,   // watchdog budget bits (am_actor_unit)
  // PicoRV32's TWO_STAGE_SHIFT: 0 shifts one bit per cycle (~50 iCE40 LCs
  // less; the UP5K build), 1 four bits per cycle
  parameter [0:0]   TWO_STAGE_SHIFT = 1,
  // the UART's receive FIFO in bytes (a power of two): the host link's
  // credit, LINK_RX_FIFO; a board without the link needs no credit (2: a
  // few flip-flops instead of a block RAM and its pointers)
  parameter integer RX_FIFO     = `AM_DEFAULT_LINK_RX_FIFO
) (
  input  wire        clk_i,
  input  wire        rst_ni,
  input  wire [31:0] boot_beh_i,             // behavior id of the boot actor
  input  wire [31:0] boot_arg_i,             // its boot message: [boot_arg_i], or [] if 0
  input  wire [31:0] gc_cfg_i,               // SYS.GC_CONFIG (0: the unit's defaults)
  input  wire [31:0] link_cfg_i,             // SYS.LINK (0: no host link)
  output wire        uart_tx_o,
  input  wire        uart_rx_i,
  output reg         halt_o,                 // firmware wrote HALT
  output wire        restart_o,              // the core is being restarted (one cycle per restart)
  output wire [1:0]  reboot_o,               // SYS.REBOOT took effect: [0] into the copy routine, [1] into a loaded image
  output reg  [31:0] halt_code_o,
  output reg         halt_ok_o,              // halted with code 0 (boards: without the 32-bit code)
  output wire        report_strobe_o,        // firmware wrote SYS.REPORT
  output wire [31:0] report_word_o,
  output wire        con_strobe_o,           // a byte written to the UART
  output wire [7:0]  con_byte_o,
  // the actor unit's trace port (docs/actor-unit.md), TRACE=1 only
  output wire        trace_valid_o,
  output wire [3:0]  trace_kind_o,
  output wire [31:0] trace_seq_o,
  output wire [31:0] trace_ref_o,
  output wire [31:0] trace_beh_o,
  output wire [3:0]  trace_len_o,
  output wire [255:0] trace_words_o,
  output wire [4:0]  trace_cause_o,
  output wire [31:0] trace_code_o,
  output wire [3:0]  trace_op_o,
  output wire [31:0] trace_value_o,
  // the core's accesses to the actor unit and its dispatch point
  // (simulation: per-phase cycle counts)
  output wire        dbg_au_valid_o,
  output wire        dbg_au_we_o,
  output wire [9:0]  dbg_au_addr_o,
  output wire        dbg_dp_wait_o,          // the core waits at the dispatch point
  output wire        dbg_dp_done_o           // ... and goes on (the fetch completes)
);
  // ---- reboot (see the header) -------------------------------------------------
  // rst_n: the reset of everything but the RAM, the UART and the reboot's
  // own registers -- the power-on reset, or a reboot's (rb_cnt_q cycles).
  // A register, as it would be next cycle (the reset input a cycle late):
  // it fans out to most of the SoC and into the core's look-ahead logic.
  reg  [1:0]     rb_cnt_q;
  reg            rst_n;
  wire           reboot_wr;
  always @(posedge clk_i) rst_n <= rst_ni && !reboot_wr && rb_cnt_q <= 2'd1;

  // ---- the core ---------------------------------------------------------------
  wire        mem_valid, mem_instr;
  wire        mem_ready;
  wire [31:0] mem_addr, mem_wdata;
  wire [3:0]  mem_wstrb;
  wire [31:0] mem_rdata;
  wire        trap;
  reg         cpu_rst_q;                     // the restart cycle: the core's reset

  picorv32 #(
    .ENABLE_COUNTERS(0), .ENABLE_COUNTERS64(0), .CATCH_MISALIGN(1), .CATCH_ILLINSN(1),
    .ENABLE_MUL(ENABLE_MUL), .ENABLE_DIV(ENABLE_DIV), .ENABLE_IRQ(0),
    .TWO_STAGE_SHIFT(TWO_STAGE_SHIFT), .PROGADDR_RESET(32'h0), .STACKADDR(RAM_WORDS * 4)
  ) cpu (
    .clk(clk_i), .resetn(rst_n && !cpu_rst_q), .trap(trap),
    .mem_valid(mem_valid), .mem_instr(mem_instr), .mem_ready(mem_ready),
    .mem_addr(mem_addr), .mem_wdata(mem_wdata), .mem_wstrb(mem_wstrb), .mem_rdata(mem_rdata),
    .mem_la_read(la_read), .mem_la_write(la_write), .mem_la_addr(la_addr),
    .mem_la_wdata(la_wdata), .mem_la_wstrb(la_wstrb),
    .pcpi_valid(pcpi_valid), .pcpi_insn(pcpi_insn), .pcpi_rs1(pcpi_rs1), .pcpi_rs2(pcpi_rs2),
    .pcpi_wr(1'b0), .pcpi_rd(32'd0), .pcpi_wait(1'b0), .pcpi_ready(1'b0),
    .irq(32'd0), .eoi(eoi), .trace_valid(cpu_trace_valid), .trace_data(cpu_trace_data)
  );
  // PicoRV32 outputs this SoC does not use (PCPI, IRQ acknowledge,
  // instruction trace).
  wire        la_read, la_write, pcpi_valid, cpu_trace_valid;
  wire [31:0] la_addr, la_wdata, pcpi_insn, pcpi_rs1, pcpi_rs2, eoi;
  wire [3:0]  la_wstrb;
  wire [35:0] cpu_trace_data;
  wire unused_cpu = ^{la_addr[1:0], la_wdata, la_wstrb, pcpi_valid, pcpi_insn,
                      pcpi_rs1, pcpi_rs2, cpu_trace_valid, cpu_trace_data};

  // ---- decode and ready, a cycle ahead -------------------------------------------
  // PicoRV32 starts an access in the cycle after mem_la_read/mem_la_write,
  // loading mem_addr/mem_wstrb from the look-ahead bus (unless it is
  // trapped), and holds it until mem_ready. So the next cycle's access is
  // known in this one: its region flags are loaded from mem_la_addr, and the
  // bus ready is a register, computed from every slave's next-cycle ready.
  // Neither mem_ready nor the read-data mux waits for an address compare
  // (the core's address register -> decode -> ready -> core path was the
  // iCE40 critical path). TRACE=1 checks both against the direct formulas
  // on every cycle, and that the unit's read data is 0 outside its reads
  // (the read-data OR below).
  // A power-of-two RAM (every configuration here) is decoded from the upper
  // address bits alone, without a comparator.
  localparam integer RAW = $clog2(RAM_WORDS);
  localparam         RAM_POW2 = (1 << RAW) == RAM_WORDS;
  // {dispatch point, sys, uart, unit, ram}: the dispatch point is one word
  // past the RAM (am_unit_dp; a data access of it is a bus error). Each
  // device is decoded on all its address bits, so that nothing aliases it:
  // a wild pointer, or a stack frame that wraps below address 0 into the
  // top of the address space, meets a bus error, not the unit's registers.
  localparam [31:0] DP_PC = `AM_DEFAULT_DISPATCH_PC;
  localparam [31:0] AU_BASE = `AM_AU_BASE, UART_BASE = `AM_UART_BASE, SYS_BASE = `AM_SYS_BASE;
  function automatic [6:0] region(input [31:2] addr);
    region = {addr == DP_PC[31:2] + 30'd2,   // the dispatch point's third word: its answer
              addr == DP_PC[31:2] + 30'd1,   // ... its second: lui sp
              addr == DP_PC[31:2],
              addr[31:`AM_SYS_BITS] == SYS_BASE[31:`AM_SYS_BITS],
              addr[31:`AM_UART_BITS] == UART_BASE[31:`AM_UART_BITS],
              addr[31:`AM_AU_BITS] == AU_BASE[31:`AM_AU_BITS],
              RAM_POW2 ? (addr[31:RAW+2] == 0)
                       : (addr[31:28] == 4'h0 && {6'd0, addr[27:2]} < RAM_WORDS)};
  endfunction
  wire       we      = mem_wstrb != 4'd0;
  // restart_d: the core is restarted next cycle (see "restart" below); no
  // access is presented to a slave then, whatever the core's registers
  // say, nor in the cycle after it (the core's registers are reset)
  wire       restart_d;
  wire       bus_on_d = !restart_d && !cpu_rst_q;             // an access can follow
  wire       la_go   = !trap && (la_read || la_write);        // mem_addr <= mem_la_addr
  wire       acc_d   = bus_on_d &&
                       (la_go || (mem_valid && !mem_ready));  // mem_valid next cycle
  // privilege (see the header): while a program's behavior runs (user_q)
  // the UART, SYS and the unit's firmware-only registers are not its: an
  // access of them is decoded as no device at all, a bus error
  reg        user_q;
  // (and the dispatch point's second and third words are only there while
  // its answer is on its way: a jump straight to one, past the first, is a
  // bus error)
  wire       dp_on;
  function automatic [6:0] allowed(input [6:0] rgn, input user, input [`AM_AU_AW-1:0] au_a,
                                   input on);
    allowed = {rgn[6] && on, rgn[5] && on, rgn[4], rgn[3] && !user, rgn[2] && !user,
               rgn[1] && !(user && `AM_AU_FW_ONLY_AT(au_a)), rgn[0]};
  endfunction
  wire [6:0] rgn_la  = region(la_addr[31:2]);
  reg  [6:0] rgn_q;
  wire [6:0] rgn_d   = la_go ? allowed(rgn_la, user_q, la_addr[`AM_AU_AW+1:2], dp_on) : rgn_q;
  // the stack guard: a store into RAM below STACK_LIMIT (the RAM's word
  // address alone: region() tells that it is RAM), or, by a program's
  // behavior, at or above STACK_TOP (the host link's state and load buffer,
  // which the firmware trusts); or into the upper half outside the unit's
  // window (a frame that wrapped below address 0)
  reg  [RAW-1:0] slim_q;
  // STACK_TOP has a bit more than a RAM word address: with no host link the
  // stack's top is the RAM's end (2^RAW words on a power-of-two RAM)
  reg  [RAW:0]   stop_q;
  reg            stop_on_q;   // STACK_TOP was written
  reg            guard_q, top_q;
  wire           guard_d = la_go ? (la_write && ((rgn_la[0] && la_addr[RAW+1:2] < slim_q) ||
                                                 (la_addr[31] && !rgn_la[1]))) : guard_q;
  // ... the program's store at or above STACK_TOP apart: a store into RAM
  // is ready in its first cycle whether it is stopped or not, so only the
  // RAM's write and the bus error wait for this compare, not the ready
  wire           top_d = la_go ? (la_write && rgn_la[0] && user_q && stop_on_q &&
                                  {1'b0, la_addr[RAW+1:2]} >= stop_q) : top_q;
  wire       we_d    = la_go ? la_write : we;
  wire [`AM_UART_AW-1:0] ua_d = la_go ? la_addr[`AM_UART_AW+1:2] : mem_addr[`AM_UART_AW+1:2];  // UART register
  always @(posedge clk_i) begin
    if (!rst_n) begin
      rgn_q   <= 7'd0;
      guard_q <= 1'b0;
      top_q   <= 1'b0;
    end else begin
      rgn_q   <= rgn_d;
      guard_q <= guard_d;
      top_q   <= top_d;
    end
  end
  wire acc     = mem_valid && !cpu_rst_q;
  wire sel_ram = acc && rgn_q[0] && !guard_q && !top_q;
  wire dp_rgn  = rgn_q[4] || rgn_q[5] || rgn_q[6];   // the dispatch point's three words
  wire sel_dp  = acc && dp_rgn && mem_instr;   // the dispatch point: a fetch there
  wire sel_au  = acc && rgn_q[1];
  wire sel_urt = acc && rgn_q[2];
  wire sel_sys = acc && rgn_q[3];
  wire sel_stk = acc && (guard_q || top_q);       // a store the guard stops (into RAM)
  // a data access of the dispatch point: a bus error (a read is known for
  // one only when presented, so it completes a cycle later)
  wire dp_data = acc && dp_rgn && !mem_instr;
  wire sel_err = (acc && (rgn_q == 7'd0 || guard_q || top_q)) || (dp_data && mem_ready);
  wire [`AM_SYS_AW-1:0] sa = mem_addr[`AM_SYS_AW+1:2];   // the SYS register

  // ---- stack guard (see the header) ------------------------------------------
  // STACK_LIMIT is written once: a behavior cannot lower it (its writes after
  // the firmware's are ignored). stack_hit: the guard stopped a store this
  // cycle; the unit aborts the open transaction with STACK (first fault wins).
  always @(posedge clk_i) begin
    if (!rst_n) begin
      slim_q    <= {RAW{1'b0}};
      stop_q    <= {(RAW+1){1'b0}};
      stop_on_q <= 1'b0;
    end else begin
      if (sel_sys && we && sa == `AM_SYS_STACK_LIMIT && slim_q == {RAW{1'b0}})
        slim_q <= mem_wdata[RAW+1:2];
      if (sel_sys && we && sa == `AM_SYS_STACK_TOP && !stop_on_q) begin
        stop_q    <= mem_wdata[RAW+2:2];
        stop_on_q <= 1'b1;
      end
    end
  end
  wire stack_hit = sel_stk;

  // ---- the dispatch table, the devices -----------------------------------------
  // DISPATCH is written once, like STACK_LIMIT (the table is read-only
  // data, below that limit, where no behavior can store): no behavior can
  // redirect a dispatch. DEVICES is the firmware's to change at any time.
  always @(posedge clk_i) begin
    if (!rst_n) begin
      dtab_q   <= {RAW{1'b0}};
      dtab_dev_q  <= {RAW{1'b0}};
      dtab_idle_q <= {RAW{1'b0}};
      dev_en_q <= 1'b0;
    end else begin
      if (sel_sys && we && sa == `AM_SYS_DISPATCH && dtab_q == {RAW{1'b0}}) begin
        dtab_q      <= mem_wdata[RAW+1:2];
        dtab_dev_q  <= mem_wdata[RAW+1:2] - {{(RAW-2){1'b0}}, 2'd2};
        dtab_idle_q <= mem_wdata[RAW+1:2] - {{(RAW-1){1'b0}}, 1'b1};
      end
      if (sel_sys && we && sa == `AM_SYS_DEVICES) dev_en_q <= mem_wdata[`AM_SYS_DEVICES_RX];
    end
  end

  // The RAM reads on the look-ahead bus: in the cycle before the core's
  // access starts, so the word is there when it does and the read completes
  // in its first cycle (zero wait states). PicoRV32 announces an access only
  // while none is in progress. A store is written in its own first cycle,
  // from the core's registered address, data and strobes, and completes in
  // it too: the stack guard's compare on the look-ahead address then only
  // has to reach a register (guard_q), not the RAM's write enable (the
  // iCE40's critical path). A store the guard stops never reaches the RAM.
  // While the core waits at the dispatch point, no RAM access is announced:
  // the unit's answer reads the dispatch table's entry through the same
  // port (dp_rd), and the fetch of the third word completes with it.
  wire        ram_la = bus_on_d && la_go && rgn_d[0] && !guard_d;   // a RAM access starts next
  wire        ram_rd = bus_on_d && la_go && la_read && rgn_d[0];      // ... a read: read now
  wire        ram_wr = sel_ram && we && mem_ready;                    // a store's first cycle
  wire        dp_rd, dp_wait, dp_retry, dp_acc;
  // the answer given was RETRY (kept until the next; reset, so that no
  // unknown value reaches the read data: the gate-level netlist and the RTL
  // then agree cycle for cycle, make postsynth)
  reg         dp_retry_q;
  always @(posedge clk_i) if (!rst_n) dp_retry_q <= 1'b0; else if (dp_rd) dp_retry_q <= dp_retry;
  localparam integer DPW = `AM_DEFAULT_BEH_W + 2;   // the dispatch table's index (am_unit_dp)
  wire [DPW-1:0] dp_idx;
  wire [DPW-3:0] dp_beh;       // the behavior field as read, before the target's check
  reg  [RAW-1:0] dtab_q;       // SYS.DISPATCH: the table's entry 0, a word address
  reg  [RAW-1:0] dtab_dev_q, dtab_idle_q;   // ... its entries -2 and -1
  // The entry an answer would read, without waiting for the target's check
  // (on the iCE40 and the ECP5 the check in front of the RAM's address did
  // not fit the cycle, docs/fpga.md): in CHECK (dp_sel_beh) the behavior's,
  // from the field straight off the actor table's read -- a dead target gets
  // no answer then, and the read is not used -- else DEVICE's or IDLE's,
  // registers. The behavior's entry is dtab_q with the id's bits set, not a
  // sum: the firmware's linker script starts the behavior entries on a
  // multiple of their count rounded up to a power of two (firmware/link.ld),
  // and ids are below BEH_COUNT, so the id's bits are 0 in dtab_q (an adder
  // here, behind the table's read, was the ECP5's critical path).
  wire           dp_sel_beh, dp_sel_dev;
  wire [RAW-1:0] dp_beh_addr = dtab_q | {{(RAW-DPW+2){1'b0}}, dp_beh};
  wire [RAW-1:0] dp_addr = dp_sel_beh ? dp_beh_addr : dp_sel_dev ? dtab_dev_q : dtab_idle_q;
  wire [31:0] ram_rdata;
  // The dispatch point is three words, so that every behavior starts with
  // the two registers C code relies on at entry set by the machine, not by
  // the behavior before it: ra at the dispatch point, sp at the stack's top.
  // Its first, DISPATCH_PC, is where every behavior returns: that fetch is
  // the unit's accept (it commits, and the next dispatch starts), and it
  // completes in the cycle after it with `auipc ra, 0` (ra = DISPATCH_PC).
  // The second completes at once with `lui sp, STACK_TOP` (STACK_TOP's bits
  // from 4 KiB up: firmware/link.ld puts the top on a 4 KiB boundary). The
  // core runs both while the unit commits and dispatches, then fetches the
  // third, DISPATCH_PC + 8 = 1 MiB, which waits for the answer: `jal x0,
  // A - 1 MiB` from the table's word A, the address of a function. With A
  // below 1 MiB the offset's 21 bits are A's with bit 20 set: wiring, no
  // adder (J-type: imm[20|10:1|11|19:12], rd = x0, JAL). A dead event's
  // answer (RETRY) is `jal x0, -8`: the first word again.
  localparam integer TOPW = RAW - 9;   // STACK_TOP's bits from 4 KiB up (a word address's from 10)
  localparam [31:0] DP_AUIPC_RA = 32'h00000097;
  wire [31:0] dp_lui = {{(20-TOPW){1'b0}}, stop_q[RAW:10], 5'd2, 7'b0110111};
  wire [31:0] dp_jal = dp_retry_q ? 32'hFF9FF06F :
                       {1'b1, ram_rdata[10:1], ram_rdata[11], ram_rdata[19:12], 5'd0, 7'b1101111};
  wire unused_dp_jal = ^{ram_rdata[31:20], ram_rdata[0], stop_q[9:0]};   // (below 1 MiB, word-aligned)
  // The answer's word is there from the cycle after dp_rd until the third
  // word's fetch takes it (ans_q): the RAM keeps its read word until its
  // next access, which the core makes only after that fetch. So the fetch
  // completes in its first cycle if the answer came first, or in the cycle
  // after dp_rd if it waited.
  reg  ans_q;
  wire dp_ans_done = sel_dp && rgn_q[6] && mem_ready;
  always @(posedge clk_i) begin
    if (!rst_n || cpu_rst_q) ans_q <= 1'b0;
    else                     ans_q <= (ans_q || dp_rd) && !dp_ans_done;
  end
  assign dp_on = dp_wait || ans_q;
  // While the fetch waits (dp_wait) the core announces nothing: the RAM
  // reads the entry the answer would take in every waiting cycle, and the
  // word read in the answering cycle (dp_rd) is the one the fetch gets. So
  // the enable, the address's selection and the write strobes do not wait
  // for the target's check.
  am_ram #(.WORDS(RAM_WORDS), .INIT_FILE(FIRMWARE)) ram (
    .clk_i(clk_i), .rst_ni(rst_n), .en_i(ram_rd || ram_wr || dp_wait),
    .addr_i(dp_wait ? dp_addr : ram_wr ? mem_addr[RAW+1:2] : la_addr[RAW+1:2]),
    .wdata_i(mem_wdata), .wstrb_i(ram_wr ? mem_wstrb : 4'd0), .rdata_o(ram_rdata));

  wire        urt_ready, urt_full_d;
  wire [31:0] urt_rdata;
  wire        urt_rx_valid;
  am_uart #(.DIV(UART_DIV), .DIV_RW(UART_DIV_RW), .RX_FIFO(RX_FIFO)) uart (
    .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(sel_urt), .ready_o(urt_ready),
    .tx_full_d_o(urt_full_d), .addr_i(mem_addr[`AM_UART_AW+1:2]), .wdata_i(mem_wdata), .we_i(we),
    .rdata_o(urt_rdata),
    .tx_o(uart_tx_o), .rx_i(uart_rx_i), .tx_strobe_o(con_strobe_o), .tx_byte_o(con_byte_o),
    .rx_valid_o(urt_rx_valid));

  // The devices that may ask for the firmware at the dispatch point
  // (SYS.DEVICES enables them; docs/firmware.md, "Devices"): RX, a byte
  // received.
  reg  dev_en_q;   // DEVICES.RX
  wire dev_req = dev_en_q && urt_rx_valid;

  wire        au_ready, au_ready_d;
  wire [31:0] au_rdata;
  wire        au_wd_irq;
  am_actor_unit #(.TABLE_SLOTS(TABLE_SLOTS), .QUEUE_AW(QAW), .TRACE(TRACE), .STATS(STATS),
                  .WD_W(WD_W)) au (
    .clk_i(clk_i), .rst_ni(rst_n),
    .mem_valid_i(sel_au), .mem_ready_o(au_ready), .mem_addr_i(mem_addr),
    .mem_wdata_i(mem_wdata), .mem_wstrb_i(mem_wstrb), .mem_rdata_o(au_rdata),
    .wr_next_i(acc_d && rgn_d[1] && we_d),
    .la_i(la_go), .rd_la_i(bus_on_d && la_go && la_read && rgn_d[1]), .la_a_i(la_addr[9:2]), .ready_d_o(au_ready_d), .wd_irq_o(au_wd_irq), .stack_i(stack_hit),
    .dp_next_i(acc_d && rgn_d[4] && !we_d), .dp_instr_i(mem_instr), .dev_i(dev_req),
    .restart_i(cpu_rst_q), .dp_rd_o(dp_rd), .dp_acc_o(dp_acc), .dp_retry_o(dp_retry), .dp_wait_o(dp_wait), .dp_idx_o(dp_idx),
    .dp_sel_beh_o(dp_sel_beh), .dp_sel_dev_o(dp_sel_dev), .dp_beh_o(dp_beh),
    .trace_valid_o(trace_valid_o), .trace_kind_o(trace_kind_o), .trace_seq_o(trace_seq_o),
    .trace_ref_o(trace_ref_o), .trace_beh_o(trace_beh_o), .trace_len_o(trace_len_o),
    .trace_words_o(trace_words_o), .trace_cause_o(trace_cause_o), .trace_code_o(trace_code_o),
    .trace_op_o(trace_op_o), .trace_value_o(trace_value_o));

  // ---- privilege (see the header) ---------------------------------------------
  // The dispatch point's answer says who runs next: a program's behavior
  // (an id past the built-in ones) makes user_q 1, the built-in behaviors
  // (the console, the sink, the link's ask proxy: the firmware's code),
  // the device routine and IDLE make it 0. A restart makes it 0: the
  // firmware's restart path reads SYS to abort the transaction. It changes
  // only while the core waits at the dispatch point or is held in reset,
  // so no access sees it change between its decode and its end.
  always @(posedge clk_i) begin
    if (!rst_n || cpu_rst_q) user_q <= 1'b0;
    else if (dp_rd) user_q <= dp_idx[DPW-1:DPW-2] == 2'b00 &&
                              dp_idx[DPW-3:0] >= `AM_DEFAULT_BEH_COUNT_RESET;
  end

  // SYS registers and the bus-error responder complete at once.
  reg [31:0] sys_rdata;
  always @(*) begin
    sys_rdata = 32'd0;
    case (sa)
      `AM_SYS_BOOT_BEH:    sys_rdata = boot_beh_i;
      `AM_SYS_RAM_BYTES:   sys_rdata = RAM_WORDS * 4;
      `AM_SYS_BOOT_ARG:    sys_rdata = boot_arg_i;
      `AM_SYS_GC_CONFIG:   sys_rdata = gc_cfg_i;
      `AM_SYS_RESTART: begin
        sys_rdata[`AM_SYS_RESTART_KIND]   = rs_cause_q;
        sys_rdata[`AM_SYS_RESTART_SEQ]    = rs_hold_q && lseq_q;
        sys_rdata[`AM_SYS_RESTART_IN_RAM] = rs_hold_q && lpc_ram_q;
        sys_rdata[`AM_SYS_RESTART_STACK]  = rs_stack_q;
        sys_rdata[`AM_SYS_RESTART_REBOOT] = rb_stub_q;
        sys_rdata[`AM_SYS_RESTART_LOADED] = rb_loaded_q;
      end
      `AM_SYS_RESTART_PC:  sys_rdata = {{(30-RAW){1'b0}}, lpc_q, 2'b00};
      `AM_SYS_STACK_LIMIT: sys_rdata = {{(30-RAW){1'b0}}, slim_q, 2'b00};
      `AM_SYS_STACK_TOP:   sys_rdata = {{(29-RAW){1'b0}}, stop_q, 2'b00};
      `AM_SYS_DISPATCH:    sys_rdata = {{(30-RAW){1'b0}}, dtab_q, 2'b00};
      `AM_SYS_DEVICES:     sys_rdata[`AM_SYS_DEVICES_RX] = dev_en_q;
      `AM_SYS_LINK:        sys_rdata = link_cfg_i;
      `AM_SYS_REBOOT:      sys_rdata = {{(30-RAW){1'b0}}, rb_addr_q, 2'b00};
      default:             sys_rdata = 32'd0;
    endcase
  end

  always @(posedge clk_i) begin
    if (!rst_n) begin
      halt_o      <= 1'b0;
      halt_code_o <= 32'd0;
      halt_ok_o   <= 1'b0;
    end else if (sel_sys && we && sa == `AM_SYS_HALT) begin
      halt_o      <= 1'b1;
      halt_code_o <= mem_wdata;
      halt_ok_o   <= (mem_wdata == 32'd0);
    end
  end

  assign dbg_au_valid_o = sel_au && au_ready;   // an access completes
  assign dbg_au_we_o    = we;
  assign dbg_au_addr_o  = mem_addr[9:0];
  assign dbg_dp_wait_o  = sel_dp;
  assign dbg_dp_done_o  = dp_ans_done;   // the answer's fetch completes

  assign report_strobe_o = sel_sys && we && sa == `AM_SYS_REPORT;
  assign report_word_o   = mem_wdata;

  // mem_ready, a cycle ahead: the RAM answers in the cycle an access
  // starts (it was done on the look-ahead); the unit says itself; a UART access waits only for a TXDATA
  // write while the holding register is full; SYS and the bus-error
  // responder (a store the stack guard stops too) answer at once.
  wire ready_d = bus_on_d && (ram_la || dp_acc || (acc_d && rgn_d[6] && (dp_rd || ans_q)) || au_ready_d ||
                 (acc_d && rgn_d[2] && !(we_d && ua_d == `AM_UART_TXDATA && urt_full_d)) ||
                 (acc_d && (rgn_d[3] || rgn_d[5] || rgn_d == 7'd0 || guard_d ||
                            ((rgn_d[4] || rgn_d[6]) && we_d))) ||
                 (dp_data && !mem_ready));
  reg  ready_q;
  always @(posedge clk_i) begin
    if (!rst_n) ready_q <= 1'b0;
    else         ready_q <= ready_d;
  end
  assign mem_ready = ready_q;
  generate
    if (TRACE != 0) begin : g_bus_check
      reg acc_dp_q;   // the dispatch point's first word was accepted: its fetch completes
      always @(posedge clk_i) acc_dp_q <= rst_n && dp_acc && bus_on_d;
      wire ready_now = sel_ram || (sel_dp && (rgn_q[6] ? ans_q : rgn_q[5] || acc_dp_q)) || (sel_au && au_ready) ||
                       (sel_urt && urt_ready) || sel_sys || sel_err;
      always @(posedge clk_i) begin
        if (rst_n && mem_valid && rgn_q != allowed(region(mem_addr[31:2]), user_q,
                                                   mem_addr[`AM_AU_AW+1:2],
                                                   dp_on)) begin
          $display("am_soc: region flags %b, but mem_addr %08x is in %b (user %0d)", rgn_q,
                   mem_addr, region(mem_addr[31:2]), user_q);
          $stop;
        end
        if (rst_n && mem_ready != ready_now) begin
          $display("am_soc: mem_ready %0d, but the slaves say %0d (addr %08x)", mem_ready,
                   ready_now, mem_addr);
          $stop;
        end
      end
    end else begin : g_no_bus_check
      wire unused_check_only = urt_ready;   // the UART's own ready: for the check
    end
  endgenerate
  // The read data (rtl/am_soc_rdata.v: the unit's is ORed in without a
  // select, TRACE=1 checks that it is 0 outside the unit's reads).
  am_soc_rdata #(.TRACE(TRACE)) u_rdata (
    .clk_i(clk_i), .rst_ni(rst_n),
    .sel_ram_i(sel_ram), .sel_dp_i(sel_dp), .sel_au_i(sel_au), .sel_urt_i(sel_urt), .sel_sys_i(sel_sys),
    .au_read_i(sel_au && au_ready && !we), .addr_i(mem_addr),
    .ram_rdata_i(ram_rdata), .dp_rdata_i(rgn_q[6] ? dp_jal : rgn_q[5] ? dp_lui : DP_AUIPC_RA), .au_rdata_i(au_rdata), .urt_rdata_i(urt_rdata),
    .sys_rdata_i(sys_rdata), .rdata_o(mem_rdata));

  // ---- reboot -------------------------------------------------------------------
  // A SYS.REBOOT write restarts the core (as a trap does, so the bus is
  // quiet) and then holds everything but the RAM in reset for a few cycles.
  // rb_addr_q, rb_stub_q and rb_loaded_q survive it (the power-on reset
  // clears them): RESTART.REBOOT says the core starts for the copy routine
  // at SYS.REBOOT; RESTART.LOADED that the image at 0 came over the link.
  assign         reboot_wr = sel_sys && we && sa == `AM_SYS_REBOOT;
  reg  [RAW-1:0] rb_addr_q;
  reg            rb_stub_q, rb_loaded_q;
  reg  [1:0]     rb_pulse_q;
  always @(posedge clk_i) begin
    if (!rst_ni) begin
      rb_cnt_q    <= 2'd0;
      rb_addr_q   <= {RAW{1'b0}};
      rb_stub_q   <= 1'b0;
      rb_loaded_q <= 1'b0;
      rb_pulse_q  <= 2'd0;
    end else begin
      rb_pulse_q <= 2'd0;
      if (reboot_wr) begin
        rb_cnt_q    <= 2'd3;
        rb_addr_q   <= mem_wdata[RAW+1:2];
        rb_stub_q   <= mem_wdata[RAW+1:2] != {RAW{1'b0}};
        if (mem_wdata[RAW+1:2] == {RAW{1'b0}}) rb_loaded_q <= 1'b1;
        rb_pulse_q  <= mem_wdata[RAW+1:2] != {RAW{1'b0}} ? 2'b01 : 2'b10;
      end else if (rb_cnt_q != 2'd0) begin
        rb_cnt_q <= rb_cnt_q - 2'd1;
      end
    end
  end
  assign reboot_o = rb_pulse_q;

  // ---- restart ---------------------------------------------------------------
  // Why, in order of precedence when two come in the same cycle: the
  // watchdog (the unit has aborted the transaction and holds until the
  // firmware acknowledges; a rising wd_irq), a bus error (the access
  // completes in this cycle), the core's trap. The restart is the next
  // cycle (cpu_rst_q); nothing that happens during it restarts again.
  //
  // Which instruction trapped: PicoRV32 fetches the next instruction
  // (pc + 4) as soon as it has decoded one, except a jalr (and a jal, which
  // fetches its target), and stops after at most that one fetch: the
  // prefetch of pc + 4, or the (rounded-down) target of a jump or taken
  // branch to a misaligned address. So the SoC keeps the address of the
  // last instruction fetch that started (lpc) and whether it followed the
  // fetch before it (lseq: lpc = previous + 4). A sequential last fetch
  // means the instruction before it trapped (lpc - 4); any other means a
  // jump or branch to a misaligned address. The firmware decodes the
  // instruction there (firmware/fw_main.c); a restart freezes lpc / lseq
  // (RESTART.SEQ / IN_RAM, RESTART_PC) until the firmware has read RESTART_PC.
  localparam [1:0] RS_TRAP = `AM_SYS_RESTART_KIND_TRAP, RS_BUS = `AM_SYS_RESTART_KIND_BUS,
                   RS_WATCHDOG = `AM_SYS_RESTART_KIND_WATCHDOG;
  reg            wd_seen_q, mv_idle_q;
  reg  [1:0]     rs_cause_q;
  reg  [RAW-1:0] lpc_q;
  reg            lpc_ram_q, lseq_q, rs_hold_q, rs_stack_q;
  wire           wd_rise = au_wd_irq && !wd_seen_q;
  assign restart_d = !cpu_rst_q && (wd_rise || sel_err || trap || reboot_wr);
  wire [1:0]     rs_cause_d = wd_rise ? RS_WATCHDOG : sel_err ? RS_BUS : RS_TRAP;
  wire           fetch_start = mem_valid && mem_instr && mv_idle_q;
  always @(posedge clk_i) begin
    if (!rst_n) begin
      cpu_rst_q  <= 1'b0;
      wd_seen_q  <= 1'b0;
      rs_cause_q <= 2'd0;
      mv_idle_q  <= 1'b1;
      rs_hold_q  <= 1'b0;
      rs_stack_q <= 1'b0;
    end else begin
      cpu_rst_q <= restart_d;
      if (restart_d) rs_stack_q <= !wd_rise && sel_stk;   // RESTART.STACK: the guard's
      if (!cpu_rst_q) wd_seen_q <= au_wd_irq;   // a rise in the restart cycle counts next cycle
      if (restart_d) rs_cause_q <= rs_cause_d;
      if (restart_d) rs_hold_q <= 1'b1;
      else if (sel_sys && !we && sa == `AM_SYS_RESTART_PC) rs_hold_q <= 1'b0;   // RESTART_PC read
      mv_idle_q <= cpu_rst_q || !mem_valid || mem_ready;   // the next valid cycle starts an access
    end
  end
  always @(posedge clk_i) begin
    if (fetch_start && !rs_hold_q) begin
      lpc_q     <= mem_addr[RAW+1:2];
      lpc_ram_q <= rgn_q[0];
      lseq_q    <= (mem_addr[RAW+1:2] == lpc_q + 1'b1);
    end
  end
  assign restart_o = cpu_rst_q;

  wire unused_soc = ^eoi;
endmodule

`default_nettype wire
