(* The atdgen side of the differential test for tests/biniou/all.atd:
     all_gen gen N SEED   N random documents (type everything) as JSON, one per line
     all_gen json2json    JSON lines -> JSON lines (ERR when rejected)
     all_gen json2bin     JSON lines -> biniou as hex lines (ERR when rejected)
     all_gen bin2json     biniou hex lines -> JSON lines (ERR when rejected)
     all_gen bin2bin      biniou hex lines -> biniou hex lines
   Random values stay within what both sides can represent: ints of each
   biniou repr in its range, float32 fields exactly representable, strings
   valid UTF-8 (atdc refuses to write invalid UTF-8 as JSON). *)

open All_t

let pick l = List.nth l (Random.int (List.length l))

let gen_int () =
  match Random.int 6 with
  | 0 -> 0
  | 1 -> Random.int 128 - 64
  | 2 -> Random.int 100000 - 50000
  | 3 -> Random.bits () - (1 lsl 29)
  | 4 -> pick [ max_int / 2; min_int / 2; 1 lsl 40; -(1 lsl 40); 127; 128; -129 ]
  | _ -> Random.bits () * (if Random.bool () then 1 else -1)

let gen_float () =
  match Random.int 6 with
  | 0 -> 0.0
  | 1 -> float_of_int (Random.int 1000 - 500)
  | 2 -> Random.float 1.0
  | 3 -> pick [ -0.0; 1e300; 1e-300; 0.1; 2.5; -1.5; 1e16; 3e-08; 123456789.125 ]
  | 4 -> Int64.float_of_bits (Random.int64 Int64.max_int)
  | _ -> Random.float 1e6 -. 5e5

let rec finite_float () =
  let f = gen_float () in
  if Float.is_finite f then f else finite_float ()

let rec gen_float32 () =
  let f = Int32.float_of_bits (Random.int32 Int32.max_int) in
  let f = if Random.bool () then f else -.f in
  if Float.is_finite f then f else gen_float32 ()

let gen_string () =
  let b = Buffer.create 16 in
  for _ = 1 to Random.int 12 do
    match Random.int 8 with
    | 0 -> Buffer.add_string b (pick [ "\""; "\\"; "/"; "\n"; "\t"; "\x01"; "\x7f" ])
    | 1 -> Buffer.add_string b (pick [ "\xc3\xa9"; "\xe2\x82\xac"; "\xf0\x9f\x98\x80" ])
    | _ -> Buffer.add_char b (Char.chr (32 + Random.int 95))
  done;
  Buffer.contents b

let gen_list f = List.init (pick [ 0; 0; 1; 2; 3; 5 ]) (fun _ -> f ())
let gen_option f = if Random.bool () then Some (f ()) else None
let gen_color () = pick [ `Red; `Green; `Blue ]

let rec gen_shape depth =
  match Random.int (if depth > 2 then 4 else 5) with
  | 0 -> `Point
  | 1 -> `Circle (finite_float ())
  | 2 -> `Rect (finite_float (), finite_float ())
  | 3 -> `Label (gen_string ())
  | _ -> `Group (gen_list (fun () -> gen_shape (depth + 1)))

let rec gen_tree depth =
  {
    value = gen_int ();
    children = (if depth > 2 then [] else gen_list (fun () -> gen_tree (depth + 1)));
    left = (if depth > 2 then None else gen_option (fun () -> gen_tree (depth + 1)));
  }

(* ~ fields hold their default half of the time, so that omission is tested *)
let or_default d f = if Random.bool () then d else f ()

let gen_row () =
  {
    id = gen_int ();
    name = gen_string ();
    note = gen_option gen_string;
    score = or_default 0.0 finite_float;
    count = or_default 0 gen_int;
    flag = or_default false Random.bool;
    tags = gen_list gen_string;
    level = or_default 3 gen_int;
    label = or_default "none" gen_string;
    hue = or_default `Green gen_color;
    maybe = or_default None (fun () -> gen_option gen_int);
  }

let gen_everything () =
  {
    unit_v = ();
    bool_v = Random.bool ();
    ints =
      {
        plain = gen_int ();
        u = abs (gen_int ()) land max_int;
        i8 = Random.int 256;
        i16 = Random.int 65536;
        i32 = Random.int32 Int32.max_int;
        i64 = Int64.sub (Random.int64 Int64.max_int) (Random.int64 Int64.max_int);
        small = Random.int 65536 - 32768;
      };
    floats = { f = finite_float (); f32 = gen_float32 () };
    text = gen_string ();
    color = gen_color ();
    shapes = gen_list (fun () -> gen_shape 0);
    opt = gen_option gen_int;
    nul = gen_option gen_string;
    opt_list = gen_list (fun () -> gen_option gen_int);
    pair = (gen_int (), gen_int ());
    cell = (gen_int (), gen_string (), or_default 1.5 finite_float, or_default true Random.bool);
    rows = gen_list gen_row;
    table = Array.of_list (gen_list gen_row);
    tree = gen_tree 0;
    assoc = gen_list (fun () -> (gen_string (), gen_int ()));
    nested = gen_list (fun () -> gen_list gen_int);
    extra = gen_option (fun () -> (gen_string (), gen_color ()));
  }

let hex s =
  String.concat "" (List.init (String.length s) (fun i -> Printf.sprintf "%02x" (Char.code s.[i])))

let unhex h =
  String.init (String.length h / 2) (fun i -> Char.chr (int_of_string ("0x" ^ String.sub h (2 * i) 2)))

let each_line f =
  try
    while true do
      let line = input_line stdin in
      print_endline
        (try f line with e -> prerr_endline (Printexc.to_string e); "ERR")
    done
  with End_of_file -> ()

let () =
  match Array.to_list Sys.argv with
  | [ _; "gen"; n; seed ] ->
      Random.init (int_of_string seed);
      for _ = 1 to int_of_string n do
        print_endline (All_j.string_of_everything (gen_everything ()))
      done
  | [ _; "json2json" ] ->
      each_line (fun l -> All_j.string_of_everything (All_j.everything_of_string l))
  | [ _; "json2bin" ] ->
      each_line (fun l -> hex (All_b.string_of_everything (All_j.everything_of_string l)))
  | [ _; "bin2json" ] ->
      each_line (fun l -> All_j.string_of_everything (All_b.everything_of_string (unhex l)))
  | [ _; "bin2bin" ] ->
      each_line (fun l -> hex (All_b.string_of_everything (All_b.everything_of_string (unhex l))))
  | _ ->
      prerr_endline "usage: all_gen gen N SEED | json2json | json2bin | bin2json | bin2bin";
      exit 2
