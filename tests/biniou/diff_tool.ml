(* The atdgen side of the differential test for a schema of schemas/ whose
   document type is `root`: differential.sh copies this file with
   Schema_j / Schema_b replaced by the schema's modules.
     tool compact FILE   the JSON document of FILE, read and written on one line
     tool json2json      JSON lines -> JSON lines (ERR when rejected)
     tool json2bin       JSON lines -> biniou as hex lines
     tool bin2json       biniou hex lines -> JSON lines
     tool bin2bin        biniou hex lines -> biniou hex lines *)

let hex s =
  String.concat "" (List.init (String.length s) (fun i -> Printf.sprintf "%02x" (Char.code s.[i])))

let unhex h =
  String.init (String.length h / 2) (fun i -> Char.chr (int_of_string ("0x" ^ String.sub h (2 * i) 2)))

let each_line f =
  try
    while true do
      let line = input_line stdin in
      print_endline (try f line with _ -> "ERR")
    done
  with End_of_file -> ()

let () =
  match Array.to_list Sys.argv with
  | [ _; "compact"; file ] ->
      let ic = open_in_bin file in
      let s = really_input_string ic (in_channel_length ic) in
      close_in ic;
      print_endline (Schema_j.string_of_root (Schema_j.root_of_string s))
  | [ _; "json2json" ] -> each_line (fun l -> Schema_j.string_of_root (Schema_j.root_of_string l))
  | [ _; "json2bin" ] -> each_line (fun l -> hex (Schema_b.string_of_root (Schema_j.root_of_string l)))
  | [ _; "bin2json" ] ->
      each_line (fun l -> Schema_j.string_of_root (Schema_b.root_of_string (unhex l)))
  | [ _; "bin2bin" ] ->
      each_line (fun l -> hex (Schema_b.string_of_root (Schema_b.root_of_string (unhex l))))
  | _ ->
      prerr_endline "usage: tool compact FILE | json2json | json2bin | bin2json | bin2bin";
      exit 2
