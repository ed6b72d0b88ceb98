fn main() {
    let mut a = std::env::args().skip(1);
    let line = a.next().unwrap();
    let n: usize = a.next().unwrap().parse().unwrap();
    let reps: usize = a.next().map_or(1, |r| r.parse().unwrap());
    let text = if let Some(p) = line.strip_prefix('@') {
        std::fs::read_to_string(p).unwrap()
    } else {
        let mut text = String::from("    vs_2_0\n");
        for _ in 0..n {
            text.push_str(&line);
            text.push('\n');
        }
        text
    };
    for _ in 0..reps {
        let b = dxso_text::assemble(std::hint::black_box(&text)).unwrap();
        std::hint::black_box(b);
    }
}
