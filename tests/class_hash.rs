use starkbatch::class_hash::*;
#[test]
fn quick() {
    let s = std::fs::read_to_string("/work/shared/data/classes/erc20.contract_class.json").unwrap();
    let c = std::fs::read_to_string("/work/shared/data/classes/erc20.compiled_contract_class.json")
        .unwrap();
    println!("{:?}", sierra_class_hash(&s).map(|x| x.to_string()));
    println!("{:?}", compiled_class_hash(&c).map(|x| x.to_string()));
    println!("{:?}", class_hash(&c).map(|x| x.1.to_string()));
}
